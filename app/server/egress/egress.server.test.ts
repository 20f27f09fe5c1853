import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkOutboundUrl, RefusedAddress, sendOutbound } from "./index.server.ts";
import { isPublicAddress } from "./public-address.server.ts";

const strict = { allowPrivate: false };

describe("addresses an operator's URL may reach", () => {
  test("public addresses, IPv4 and IPv6", () => {
    for (const address of ["8.8.8.8", "142.250.72.14", "2607:f8b0:4004:c07::64"]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });

  test("never this machine, a private network, link-local, metadata, or their IPv6 forms", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      "64:ff9b::a9fe:a9fe",
      "fd00::1",
      "fe80::1",
      "ff02::1",
      "2002:7f00:1::1",
      "not an address",
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
  });
});

describe("checkOutboundUrl", () => {
  test("refuses loopback, metadata and localhost URLs, plain http, and credentials in the URL", async () => {
    for (const url of [
      "https://127.0.0.1:8443/push",
      "https://169.254.169.254/latest/meta-data",
      "https://localhost/push",
      "https://push.localhost/x",
      "https://[::1]/push",
      "https://[::ffff:7f00:1]/push",
      "https://0x7f.1/push",
      "http://example.com/push",
      "https://user:secret@example.com/push",
      "ftp://example.com/push",
      "not a url",
    ]) {
      const checked = await checkOutboundUrl(url, strict);
      expect({ url, ok: checked.ok }).toEqual({ url, ok: false });
    }
  });

  test("refuses a name that resolves to this machine", async () => {
    // localhost.localdomain-style names aside, a name DNS answers with loopback is refused by its address.
    const checked = await checkOutboundUrl("https://ip6-localhost/push", strict);
    expect(checked.ok).toBe(false);
  });

  test("a public address passes; allowing private addresses (tests, development) lets loopback and http through", async () => {
    expect((await checkOutboundUrl("https://8.8.8.8/hook", strict)).ok).toBe(true);
    expect((await checkOutboundUrl("http://127.0.0.1:9/hook", { allowPrivate: true })).ok).toBe(true);
  });
});

describe("sendOutbound", () => {
  let server: Server;
  let port: number;
  let received = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      received += 1;
      req.resume();
      res.writeHead(201).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (url: string, allowPrivate: boolean) =>
    sendOutbound(new URL(url), {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "hello",
      timeoutMs: 2_000,
      rule: { allowPrivate },
    });

  test("never connects to a name that resolves to this machine, whatever it resolved to when it was given", async () => {
    await expect(send(`https://localhost:${port}/x`, false)).rejects.toBeInstanceOf(RefusedAddress);
    await expect(send(`https://127.0.0.1:${port}/x`, false)).rejects.toBeInstanceOf(RefusedAddress);
    await expect(send(`http://localhost:${port}/x`, false)).rejects.toBeInstanceOf(RefusedAddress);
    expect(received).toBe(0);
  });

  test("with private addresses allowed, it delivers and reads the answer", async () => {
    expect(await send(`http://localhost:${port}/x`, true)).toMatchObject({ status: 201, body: "ok" });
    expect(received).toBe(1);
  });
});

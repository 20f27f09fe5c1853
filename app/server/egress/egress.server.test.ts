import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkOutboundUrl, RefusedAddress, sendOutbound } from "./index.server.ts";
import { isPublicAddress } from "./public-address.server.ts";

const strict = { allowPrivate: false };

/**
 * Every range of IANA's IPv4 and IPv6 Special-Purpose Address Registries, and the IPv6 space outside global unicast
 * (2000::/3), each with an address inside it (its first and, where it differs, its last).
 */
const NOT_PUBLIC: [range: string, name: string, addresses: string[]][] = [
  ["0.0.0.0/8", "this network", ["0.0.0.0", "0.255.255.255"]],
  ["10.0.0.0/8", "private use", ["10.0.0.0", "10.255.255.255"]],
  ["100.64.0.0/10", "shared address space (carrier-grade NAT)", ["100.64.0.0", "100.127.255.255"]],
  ["127.0.0.0/8", "loopback", ["127.0.0.1", "127.255.255.255"]],
  ["169.254.0.0/16", "link-local (cloud metadata)", ["169.254.169.254", "169.254.255.255"]],
  ["172.16.0.0/12", "private use", ["172.16.0.0", "172.31.255.255"]],
  ["192.0.0.0/24", "IETF protocol assignments", ["192.0.0.0", "192.0.0.9", "192.0.0.10", "192.0.0.170"]],
  ["192.0.2.0/24", "documentation (TEST-NET-1)", ["192.0.2.1", "192.0.2.255"]],
  ["192.31.196.0/24", "AS112-v4", ["192.31.196.1"]],
  ["192.52.193.0/24", "AMT", ["192.52.193.1"]],
  ["192.88.99.0/24", "deprecated 6to4 relay anycast", ["192.88.99.1"]],
  ["192.168.0.0/16", "private use", ["192.168.0.0", "192.168.255.255"]],
  ["192.175.48.0/24", "direct delegation AS112 service", ["192.175.48.1"]],
  ["198.18.0.0/15", "benchmarking", ["198.18.0.0", "198.19.255.255"]],
  ["198.51.100.0/24", "documentation (TEST-NET-2)", ["198.51.100.7"]],
  ["203.0.113.0/24", "documentation (TEST-NET-3)", ["203.0.113.9"]],
  ["224.0.0.0/4", "multicast", ["224.0.0.1", "239.255.255.255"]],
  ["240.0.0.0/4", "reserved", ["240.0.0.1", "255.255.255.254"]],
  ["255.255.255.255/32", "limited broadcast", ["255.255.255.255"]],
  ["::/128", "unspecified", ["::"]],
  ["::1/128", "loopback", ["::1"]],
  ["::/96", "IPv4-compatible (deprecated)", ["::7f00:1", "::a9fe:a9fe", "::808:808"]],
  ["::ffff:0:0/96", "IPv4-mapped, judged by the IPv4 address", ["::ffff:127.0.0.1", "::ffff:169.254.169.254"]],
  ["::ffff:0:0:0/96", "IPv4-translated", ["::ffff:0:7f00:1", "::ffff:0:808:808"]],
  ["64:ff9b::/96", "IPv4-IPv6 translation (NAT64)", ["64:ff9b::a9fe:a9fe", "64:ff9b::808:808"]],
  ["64:ff9b:1::/48", "local-use IPv4-IPv6 translation", ["64:ff9b:1::1"]],
  ["100::/64", "discard-only", ["100::1"]],
  ["100:0:0:1::/64", "dummy IPv6 prefix", ["100:0:0:1::1"]],
  ["2001::/23", "IETF protocol assignments", ["2001:1::1", "2001:1::2", "2001:1ff::1"]],
  ["2001::/32", "Teredo", ["2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2"]],
  ["2001:2::/48", "benchmarking", ["2001:2::1"]],
  ["2001:3::/32", "AMT", ["2001:3::1"]],
  ["2001:4:112::/48", "AS112-v6", ["2001:4:112::1"]],
  ["2001:10::/28", "deprecated ORCHID", ["2001:10::1"]],
  ["2001:20::/28", "ORCHIDv2", ["2001:20::1"]],
  ["2001:30::/28", "drone remote ID entity tags", ["2001:30::1"]],
  ["2001:db8::/32", "documentation", ["2001:db8::1"]],
  ["2002::/16", "6to4", ["2002:7f00:1::1", "2002:808:808::1"]],
  ["2620:4f:8000::/48", "direct delegation AS112 service", ["2620:4f:8000::1"]],
  ["3fff::/20", "documentation", ["3fff::1", "3fff:fff:ffff::1"]],
  ["5f00::/16", "segment routing SIDs", ["5f00::1"]],
  ["fc00::/7", "unique-local", ["fc00::1", "fd00::1"]],
  ["fe80::/10", "link-local", ["fe80::1", "fe80::1%eth0", "febf::1"]],
  ["fec0::/10", "site-local (deprecated)", ["fec0::1", "feff::1"]],
  ["ff00::/8", "multicast", ["ff02::1"]],
  ["4000::/2 and the rest outside 2000::/3", "not global unicast", ["4000::1", "1::1", "e000::1"]],
];

describe("addresses an operator's URL may reach", () => {
  test("public addresses, IPv4 and IPv6, the mapped form of a public IPv4 address too", () => {
    for (const address of ["8.8.8.8", "142.250.72.14", "2607:f8b0:4004:c07::64", "2a00:1450::1", "::ffff:8.8.8.8"]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });

  test.each(NOT_PUBLIC)("never %s (%s)", (_range, _name, addresses) => {
    for (const address of addresses) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
  });

  test("never what is not an address written the usual way", () => {
    for (const address of ["not an address", "0x7f.1", "2130706433", "127.1", "1.2.3.4.5", ""]) {
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
      if (req.url !== "/trickle") return void res.writeHead(201).end("ok");
      // Answers at once, then a byte every 100 ms for ever: no idle timeout would ever fire.
      res.writeHead(200);
      const trickle = setInterval(() => res.write("."), 100);
      res.on("close", () => clearInterval(trickle));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (url: string, allowPrivate: boolean, timeoutMs = 2_000) =>
    sendOutbound(new URL(url), {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "hello",
      timeoutMs,
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

  test("the whole answer, body included, must be in by the deadline: a server trickling its body is cut off", async () => {
    const started = performance.now();
    await expect(send(`http://localhost:${port}/trickle`, true, 500)).rejects.toThrow(/no whole answer within 500 ms/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

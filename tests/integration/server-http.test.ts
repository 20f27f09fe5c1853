import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { siteConfig } from "~/config/site.ts";
import { contactRequests, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { log } from "~/server/log.server.ts";
import { testEnv, validContact, validOptOut, waitUntil } from "../../tooling/local-services.ts";
import { contactRequestRow, outboxRow } from "../../tooling/stored-rows.ts";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request sent exactly as written: fetch would normalise the path and refuses to set Host. */
function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path,
        headers: {
          ...(options.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        setHost: !options.headers?.Host,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** What the server writes to stdout and stderr (its log, at info level) while `run` runs, and a little after. */
async function capturedOutput(run: () => Promise<void>, until: (output: string) => boolean = () => true) {
  let output = "";
  const capture = (chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  };
  const level = log.level;
  log.level = "info";
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture);
  try {
    await run();
    await waitUntil(() => until(output), 2_000).catch(() => undefined);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    log.level = level;
  }
  return output;
}

/** The Node server's own rules, in front of React Router: origins, proxies, POST limits, static files. */
describe("server", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({ TRUST_PROXY: "1", POST_RATE_LIMIT_PER_MINUTE: "2" }));
  });
  afterAll(() => running.close());

  const postContactForm = (headers: Record<string, string>) =>
    fetch(`${running.url}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...headers },
      body: new URLSearchParams(validContact).toString(),
      redirect: "manual",
    });

  test("refuses a form posted from another site with 403, before storing anything", async () => {
    const response = await postContactForm({ Origin: "https://evil.example", "X-Forwarded-For": "203.0.113.1" });
    expect(response.status).toBe(403);
    expect(await running.services.db.$count((await import("~/server/leads/schema.server.ts")).contactRequests)).toBe(0);
  });

  test("accepts the site's public origin even when a proxy rewrote Host", async () => {
    const response = await postContactForm({
      Origin: new URL(siteConfig.siteUrl).origin,
      "X-Forwarded-For": "203.0.113.2",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Message sent successfully!");
  });

  test("limits POSTs per client address behind one trusted proxy, answering browsers with a page", async () => {
    const from = (address: string) => postContactForm({ "X-Forwarded-For": address, Origin: "https://evil.example" });
    expect((await from("198.51.100.7")).status).toBe(403);
    expect((await from("198.51.100.7")).status).toBe(403);
    const limited = await from("198.51.100.7");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("content-type")).toContain("text/html");
    const page = await limited.text();
    expect(page).toContain("Too many requests");
    expect(page).toContain(siteConfig.phone.display);
    // Another visitor behind the same proxy is not affected.
    expect((await from("198.51.100.8")).status).toBe(403);
  });

  test("serves pages only by their paths, with their CSP, never as raw .html files", async () => {
    const page = await fetch(`${running.url}/about`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self' 'sha256-");
    for (const raw of ["/index.html", "/about/index.html"]) {
      const response = await fetch(`${running.url}${raw}`);
      expect(response.status, raw).toBe(404);
      expect(response.headers.get("content-security-policy"), raw).toContain("'nonce-");
    }
  });

  test("sends a page in the best encoding the browser accepts, as compressed at build time", async () => {
    const folder = new URL("../../build/client/about/", import.meta.url);
    const html = await readFile(new URL("index.html", folder), "utf8");
    const stored = {
      br: await readFile(new URL("index.html.br", folder)),
      gzip: await readFile(new URL("index.html.gz", folder)),
    };
    const etags = new Set<string>();
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
      ["identity", null],
    ] as const) {
      const response = await fetch(`${running.url}/about`, { headers: { "Accept-Encoding": accept } });
      expect(response.headers.get("content-encoding"), accept).toBe(encoding);
      expect(response.headers.get("vary"), accept).toContain("Accept-Encoding");
      expect(response.headers.get("content-security-policy"), accept).toContain("style-src 'self' 'sha256-");
      expect(Number(response.headers.get("content-length")), accept).toBe(
        encoding ? stored[encoding].length : Buffer.byteLength(html),
      );
      expect(await response.text(), accept).toBe(html);
      const etag = response.headers.get("etag")!;
      etags.add(etag);
      // Not fetch: it asks for no-cache whenever a request carries If-None-Match.
      const again = await rawRequest(running.url, {
        path: "/about",
        headers: { "Accept-Encoding": accept, "If-None-Match": etag },
      });
      expect(again.status, accept).toBe(304);
    }
    // Each encoding is its own representation, with its own ETag.
    expect(etags.size).toBe(3);
  });

  test("sends a script in the best encoding the browser accepts, as compressed at build time, cached for good", async () => {
    // The app's entry script, which every page that hydrates loads.
    const assets = new URL("../../build/client/assets/", import.meta.url);
    const entry = (await readdir(assets)).find((name) => /^entry\.client-.*\.js$/.test(name))!;
    const script = await readFile(new URL(entry, assets), "utf8");
    const stored = {
      br: await readFile(new URL(`${entry}.br`, assets)),
      gzip: await readFile(new URL(`${entry}.gz`, assets)),
    };
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
      ["identity", null],
    ] as const) {
      const response = await fetch(`${running.url}/assets/${entry}`, {
        headers: { "Accept-Encoding": accept },
      });
      expect(response.headers.get("content-encoding"), accept).toBe(encoding);
      expect(response.headers.get("content-type"), accept).toMatch(/^text\/javascript; charset=utf-8$/i);
      expect(response.headers.get("vary"), accept).toContain("Accept-Encoding");
      expect(response.headers.get("cache-control"), accept).toBe("public, max-age=31536000, immutable");
      expect(Number(response.headers.get("content-length")), accept).toBe(
        encoding ? stored[encoding].length : Buffer.byteLength(script),
      );
      expect(await response.text(), accept).toBe(script);
    }
  });

  test("counts every address of one IPv6 /64 as one client for the POST limit", async () => {
    const from = (address: string) => postContactForm({ "X-Forwarded-For": address, Origin: "https://evil.example" });
    expect((await from("2001:db8:7:7::1")).status).toBe(403);
    expect((await from("2001:db8:7:7::2")).status).toBe(403);
    expect((await from("2001:db8:7:7:ffff::3")).status).toBe(429);
    expect((await from("2001:db8:7:8::1")).status).toBe(403);
  });

  test("never serves a raw .html file, however its path is encoded", async () => {
    const variants = [
      "/index.html",
      "/about/index.html",
      "/about/index%2Ehtml",
      "/about/index%2ehtml",
      "/about/index%252Ehtml",
      "/about%2Findex.html",
      "/about/index.html.",
      "/about/index.html..",
      "/about/index.%68tml",
      "/about/./index.html",
      "/ABOUT/INDEX.HTML",
      "/about/index.html.br",
      "/about/index.html.gz",
    ];
    const rawAbout = await readFile(new URL("../../build/client/about/index.html", import.meta.url), "utf8");
    for (const path of variants) {
      const response = await rawRequest(running.url, { path });
      expect(response.status, path).not.toBe(200);
      expect(response.body, path).not.toBe(rawAbout);
      expect(response.headers["content-security-policy"], path).toContain("'nonce-");
    }
    // Other public files are still served.
    expect((await rawRequest(running.url, { path: "/favicon.svg" })).status).toBe(200);
    expect((await rawRequest(running.url, { path: "/robots.txt" })).status).toBe(200);
  });

  test("answers a malformed Host with 400, and logs no stack trace", async () => {
    let response: RawResponse | undefined;
    const output = await capturedOutput(async () => {
      response = await rawRequest(running.url, {
        method: "POST",
        path: "/functions/v1/send-contact-email",
        headers: { Host: "a b", "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.30" },
        body: JSON.stringify(validContact),
      });
    });
    expect(response!.status).toBe(400);
    expect(output).not.toMatch(/(\n|\\n)\s+at /);
    for (const host of ["a/b", "a@b", "[::1", "example.com:port"]) {
      const page = await rawRequest(running.url, { path: "/about", headers: { Host: host } });
      expect(page.status, host).toBe(400);
    }
    expect((await rawRequest(running.url, { path: "/about", headers: { Host: "[::1]:3000" } })).status).toBe(200);
  });

  test("refuses PUT, PATCH and DELETE to pages with 405 and Allow, storing nothing", async () => {
    const before = await leadCount();
    for (const [path, body] of [
      ["/contact", validContact],
      ["/do-not-sell", validOptOut],
    ] as const) {
      for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const response = await rawRequest(running.url, {
          method,
          path,
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": `203.0.113.${method.length + path.length}`,
          },
          body: new URLSearchParams(body).toString(),
        });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.allow, `${method} ${path}`).toBe("GET, HEAD, POST");
      }
    }
    const api = await rawRequest(running.url, { method: "PUT", path: "/functions/v1/send-contact-email", body: "{}" });
    expect(api.status).toBe(405);
    expect(api.headers.allow).toBe("POST, OPTIONS");
    expect(await leadCount()).toBe(before);
  });

  test("gives every response a request id, keeping a well-formed one from the client", async () => {
    const own = (await fetch(`${running.url}/about`)).headers.get("x-request-id");
    expect(own).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${running.url}/about`, { headers: { "X-Request-Id": "lb-7f3a9c21-0001" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a9c21-0001");
    const replaced = await fetch(`${running.url}/about`, { headers: { "X-Request-Id": "<script>alert(1)</script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("logs requests, 404s too, by path without the query string", async () => {
    const output = await capturedOutput(
      async () => {
        const response = await fetch(`${running.url}/no-such-page?gclid=abc123&email=ann.lee%40example.com`);
        expect(response.status).toBe(404);
        await response.text();
      },
      (text) => text.includes("/no-such-page"),
    );
    const line = output.split("\n").find((entry) => entry.includes("/no-such-page"));
    expect(JSON.parse(line!)).toMatchObject({ method: "GET", path: "/no-such-page", status: 404 });
    expect(output).not.toContain("gclid");
    expect(output).not.toContain("abc123");
    expect(output).not.toMatch(/ann\.lee/);
  });

  test("logs a signed link's route, never its token, however the path is spelled", async () => {
    const token = "aSecretToken0123456789-_abcdefXYZ";
    const paths = [`/r/${token}`, `/statements/${token}`, `/R/${token}.data`, `/%73tatements/${token}`];
    const output = await capturedOutput(
      async () => {
        for (const path of paths) await (await fetch(`${running.url}${path}`)).text();
      },
      (text) => text.split("\n").filter((entry) => entry.includes(":token")).length === paths.length,
    );
    const logged = output
      .split("\n")
      .filter((entry) => entry.includes('"request"'))
      .map((entry) => (JSON.parse(entry) as { path: string }).path);
    expect(logged).toEqual(["/r/:token", "/statements/:token", "/r/:token", "/statements/:token"]);
    expect(output).not.toContain(token);
  });

  test("logs a texts thread's route, never the customer's number in its path", async () => {
    const paths = ["/admin/texts/15550104321", "/admin/texts/15550104321.data", "/admin/%74exts/15550104321"];
    const output = await capturedOutput(
      async () => {
        // Signed out, each is sent to sign in: only its own request is logged here.
        for (const path of paths) await (await fetch(`${running.url}${path}`, { redirect: "manual" })).text();
      },
      (text) => text.split("\n").filter((entry) => entry.includes(":number")).length === paths.length,
    );
    const logged = output
      .split("\n")
      .filter((entry) => entry.includes('"request"'))
      .map((entry) => (JSON.parse(entry) as { path: string }).path);
    expect(logged).toEqual(paths.map(() => "/admin/texts/:number"));
    expect(output).not.toContain("0104321");
  });

  test("a page opened by a signed link loads no tracking script and counts no view; other pages do", async () => {
    // The counting listener posts page views to the events endpoint; its script names the endpoint. GA4's and the
    // tracking number's scripts load under the same rule (root.tsx), and this build has neither configured.
    const html = async (path: string) => (await fetch(`${running.url}${path}`)).text();
    expect(await html("/about")).toContain(SITE_EVENTS_ENDPOINT);
    for (const path of ["/r/not-a-token", "/statements/not-a-token", "/Statements/not-a-token"]) {
      const page = await html(path);
      expect(page).toContain("<html");
      expect(page).not.toContain(SITE_EVENTS_ENDPOINT);
    }
  });

  test("a partner's link answers a JSON post with 415, like the other forms, and a form post as before", async () => {
    const post = (contentType: string, body: string) =>
      fetch(`${running.url}/r/not-a-token`, {
        method: "POST",
        headers: {
          "Content-Type": contentType,
          Origin: new URL(siteConfig.siteUrl).origin,
          "X-Forwarded-For": "203.0.113.41",
        },
        body,
      });
    expect((await post("application/json", JSON.stringify({ intent: "accept" }))).status).toBe(415);
    // A form post reaches the link's answer: this link is not one the site issued.
    expect((await post("application/x-www-form-urlencoded", "intent=accept")).status).toBe(404);
  });

  test("answers /healthz without the database, and /readyz with the email backlog", async () => {
    const health = await fetch(`${running.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { outbox: { backlog: number; oldestUnsentSeconds: number } };
    expect(body).toMatchObject({ status: "ready", database: "ok" });
    expect(body.outbox.backlog).toBeGreaterThanOrEqual(0);
    expect(body.outbox.oldestUnsentSeconds).toBeGreaterThanOrEqual(0);
    // Probes are not rate-limited: far more than the POST limit, and no 429.
    for (let probe = 0; probe < 5; probe++) expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
  });

  const leadCount = async () =>
    (await running.services.db.$count(contactRequests)) + (await running.services.db.$count(privacyRequests));
});

describe("CORS for ALLOWED_ORIGINS on the lead endpoint", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({ ALLOWED_ORIGINS: "https://partner.example" }));
  });
  afterAll(() => running.close());

  const preflight = (origin: string) =>
    fetch(`${running.url}/functions/v1/send-contact-email`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });

  test("answers the preflight of an allowed origin, and lets it read the answer to its POST", async () => {
    const response = await preflight("https://partner.example");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://partner.example");
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    const post = await fetch(`${running.url}/functions/v1/send-contact-email`, {
      method: "POST",
      headers: { Origin: "https://partner.example", "Content-Type": "application/json" },
      body: JSON.stringify(validContact),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get("access-control-allow-origin")).toBe("https://partner.example");
  });

  test("lets an allowed origin post the pages' own forms: the server's origin check is the only one", async () => {
    const response = await fetch(`${running.url}/contact`, {
      method: "POST",
      headers: {
        Origin: "https://partner.example",
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "text/html",
      },
      body: new URLSearchParams(validContact).toString(),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Message sent successfully!");
  });

  test("grants nothing to any other origin", async () => {
    const response = await preflight("https://evil.example");
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const page = await fetch(`${running.url}/contact`, {
      method: "OPTIONS",
      headers: { Origin: "https://partner.example", "Access-Control-Request-Method": "POST" },
    });
    expect(page.status).toBe(405);
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("slow clients", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({}));
  });
  afterAll(() => running.close());

  /** Opens a raw connection, writes `start`, then one more byte of `drip` every second; resolves with the seconds until the server closed it. */
  function trickle(start: string, drip: string): Promise<number> {
    const { port } = new URL(running.url);
    return new Promise((resolve, reject) => {
      const opened = Date.now();
      const socket = connect(Number(port), "127.0.0.1", () => socket.write(start));
      let sent = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(drip[sent++ % drip.length]!);
      }, 1_000);
      socket.on("data", () => undefined);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearInterval(timer);
        resolve((Date.now() - opened) / 1000);
      });
      setTimeout(() => reject(new Error("the server never closed the connection")), 40_000).unref();
    });
  }

  test("closes a connection whose headers are still arriving after 15 s, and one whose body is after 20 s", async () => {
    let headers = 0;
    let body = 0;
    const output = await capturedOutput(async () => {
      [headers, body] = await Promise.all([
        trickle("GET / HTTP/1.1\r\nHost: localhost\r\n", "X-Slow: 1\r\n"),
        trickle(
          "POST /functions/v1/send-contact-email HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{",
          "        ",
        ),
      ]);
    });
    // A client cut off is the client's problem: one log line, no stack trace.
    expect(output).not.toMatch(/(\n|\\n)\s+at /);
    expect(headers).toBeGreaterThan(14);
    expect(headers).toBeLessThan(18);
    expect(body).toBeGreaterThan(19);
    expect(body).toBeLessThan(23);
    // The server is still fine.
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  }, 45_000);
});

describe("readiness without a database", () => {
  test("/readyz counts emails given up for good apart from the backlog", async () => {
    const running = await startServer(testEnv({}));
    try {
      const leadId = randomUUID();
      await running.services.db.insert(contactRequests).values(contactRequestRow(leadId));

      const inADay = new Date(Date.now() + 86_400_000);
      await running.services.db
        .insert(emailOutbox)
        .values([
          outboxRow(leadId, { nextAttemptAt: inADay }),
          outboxRow(leadId, { nextAttemptAt: inADay, failedAt: new Date(), attempts: 3 }),
        ]);
      const body = (await (await fetch(`${running.url}/readyz`)).json()) as { outbox: Record<string, number> };
      expect(body.outbox).toMatchObject({ backlog: 1, failed: 1 });
    } finally {
      await running.close();
    }
  });

  test("/readyz answers 503 when the database does not answer, while /healthz still answers 200", async () => {
    const running = await startServer(testEnv({}));
    try {
      await running.services.close();
      const ready = await fetch(`${running.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "unavailable", database: "unreachable" });
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => {
        running.server.close(() => resolve());
        running.server.closeAllConnections();
      });
    }
  });
});

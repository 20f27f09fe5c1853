import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { siteEventCounts } from "../../app/server/analytics/schema.server.ts";
import { testEnv } from "../../tooling/local-services.ts";
import { localDate } from "~/lib/operator-time.ts";

/** Node's fetch calls itself "node", which isbot rightly takes for a bot. */
const BROWSER =
  "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";

/** The beacon endpoint: fixed-shape bodies counted into daily aggregates; anything else refused, nothing kept. */
describe("site events endpoint", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(
      testEnv({ TRUST_PROXY: "1", ANALYTICS_FLUSH_MS: "50", ANALYTICS_RATE_LIMIT_PER_MINUTE: "50" }),
    );
  });
  afterAll(() => running.close());

  let address = 0;
  const send = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${running.url}/api/events`, {
      method: "POST",
      // Each test its own address, so the per-IP limit of one never touches another.
      headers: {
        "Content-Type": "text/plain;charset=UTF-8",
        "User-Agent": BROWSER,
        "X-Forwarded-For": `192.0.2.${++address % 250}`,
        ...headers,
      },
      body,
    });
  const rows = async () => {
    await running.services.siteEvents.flush();
    return running.services.db
      .select()
      .from(siteEventCounts)
      .orderBy(siteEventCounts.kind, siteEventCounts.path, siteEventCounts.placement);
  };
  const total = async () => (await rows()).reduce((sum, row) => sum + row.count, 0);

  test("counts views and calls into daily rows with the visit's source, and keeps nothing else", async () => {
    const call = JSON.stringify({
      kind: "call",
      path: "/contact",
      placement: "contact_hero",
      source: "google",
      medium: "cpc",
      campaign: "spring",
    });
    for (const body of [call, call, JSON.stringify({ kind: "view", path: "/" })]) {
      const response = await send(body);
      expect(response.status).toBe(204);
      expect(response.headers.get("set-cookie")).toBeNull();
      // Answered before Express, with the headers and request id every response of the site carries.
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Counted on the operator's day (the default OPERATOR_TIME_ZONE).
    const today = localDate(new Date(), "America/New_York");
    expect(await rows()).toEqual([
      {
        day: today,
        path: "/contact",
        kind: "call",
        placement: "contact_hero",
        source: "google",
        medium: "cpc",
        campaign: "spring",
        count: 2,
      },
      { day: today, path: "/", kind: "view", placement: "", source: "", medium: "", campaign: "", count: 1 },
    ]);
    // A later write adds to the stored row, as another instance's would.
    expect((await send(call)).status).toBe(204);
    expect((await rows())[0]!.count).toBe(3);
  });

  test("refuses hostile bodies with 4xx and changes nothing", async () => {
    const before = await rows();
    const hostile: [string, string, number][] = [
      ["oversized", JSON.stringify({ kind: "view", path: "/", campaign: "x".repeat(5000) }), 413],
      ["unknown label", JSON.stringify({ kind: "call", path: "/", placement: "evil" }), 422],
      ["javascript: path", JSON.stringify({ kind: "view", path: "javascript:alert(1)" }), 422],
      ["extra field", JSON.stringify({ kind: "view", path: "/", visitor: "abc" }), 422],
      ["long campaign", JSON.stringify({ kind: "view", path: "/", campaign: "x".repeat(101) }), 422],
      ["control characters", JSON.stringify({ kind: "view", path: "/", source: "a\u0000b" }), 422],
      ["not JSON", "kind=view", 400],
      ["view with a placement", JSON.stringify({ kind: "view", path: "/", placement: "hero" }), 422],
      ["form start with a placement", JSON.stringify({ kind: "form", path: "/contact", placement: "hero" }), 422],
    ];
    for (const [name, body, status] of hostile) expect((await send(body)).status, name).toBe(status);
    expect((await send(JSON.stringify({ kind: "view", path: "/" }), { "Content-Type": "text/html" })).status).toBe(415);
    expect((await send(JSON.stringify({ kind: "view", path: "/" }), { Origin: "https://evil.example" })).status).toBe(
      403,
    );
    for (const method of ["GET", "PUT", "DELETE"]) {
      const refused = await fetch(`${running.url}/api/events`, { method });
      expect([refused.status, refused.headers.get("allow")], method).toEqual([405, "POST"]);
    }
    expect(await rows()).toEqual(before);
  });

  test("refuses made-up paths without adding a row (the browser test sends 10,000)", async () => {
    const before = (await rows()).length;
    const statuses = new Set<number>();
    for (let batch = 0; batch < 5; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          send(JSON.stringify({ kind: "view", path: `/flood-${batch * 100 + index}` })).then(
            (response) => response.status,
          ),
        ),
      );
      for (const status of answers) statuses.add(status);
    }
    expect([...statuses]).toEqual([422]);
    expect((await rows()).length).toBe(before);
  });

  test("a client that leaves mid-body is counted for nothing, and the server goes on answering", async () => {
    const before = await rows();
    const { port } = new URL(running.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const body = JSON.stringify({ kind: "view", path: "/" });
    socket.write(
      `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: ${BROWSER}\r\n` +
        `Content-Type: text/plain\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rows()).toEqual(before);
    expect((await send(JSON.stringify({ kind: "view", path: "/about" }))).status).toBe(204);
  });

  test("answers bots and prefetches with 204 without counting them", async () => {
    const before = await total();
    const view = JSON.stringify({ kind: "view", path: "/about" });
    expect((await send(view, { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).status).toBe(204);
    expect((await send(view, { "Sec-Purpose": "prefetch" })).status).toBe(204);
    expect((await send(view, { Purpose: "prefetch" })).status).toBe(204);
    expect(await total()).toBe(before);
  });

  test("has its own per-IP limit, apart from the forms'", async () => {
    const view = () => send(JSON.stringify({ kind: "view", path: "/" }), { "X-Forwarded-For": "198.51.100.9" });
    for (let index = 0; index < 50; index += 1) expect((await view()).status).toBe(204);
    const limited = await view();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The forms' limit is untouched: the same address still reaches the lead intake.
    const lead = await fetch(`${running.url}/functions/v1/send-contact-email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.9" },
      body: "{}",
    });
    expect(lead.status).toBe(422);
  });
});

import { createECDH } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { signInFailures } from "../../app/server/console/schema.server.ts";
import { pushSubscriptions } from "../../app/server/alerts/schema.server.ts";
import { testEnv } from "../../tooling/local-services.ts";

const PASSWORD = "a long enough password";
let running: RunningServer;
let origin: string;
let n = 0;

/** A fresh operator per test, so their sign-in counts never meet. */
async function operator(): Promise<string> {
  const email = `security-${(n += 1)}@example.com`;
  await saveOperator(running.services.db, email, PASSWORD);
  return email;
}

/** The sign-in form as the page posts it, from a client address (the server trusts X-Forwarded-For here). */
function signIn(email: string, password: string, from: string, headers: Record<string, string> = {}) {
  return fetch(`${origin}/admin/login`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": from,
      Origin: origin,
      ...headers,
    },
    body: new URLSearchParams({ email, password, next: "/admin" }).toString(),
    redirect: "manual",
  });
}

beforeAll(async () => {
  running = await startServer(testEnv({ TRUST_PROXY: "loopback" }));
  origin = running.url;
});
afterAll(() => running?.close());

describe("the sign-in limit, as the review ran it", () => {
  test("20 parallel wrong passwords for one account from one address: at most 5 are checked, the rest get 429", async () => {
    const email = await operator();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => signIn(email, "not the password!", "203.0.113.50")),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });

  test("after failures from one address, the right password from a second address signs in", async () => {
    const email = await operator();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(email, "not the password!", "203.0.113.60")).status).toBe(401);
    }
    const attacker = await signIn(email, PASSWORD, "203.0.113.60");
    expect(attacker.status).toBe(429);
    expect(Number(attacker.headers.get("retry-after"))).toBeGreaterThan(0);
    const operatorElsewhere = await signIn(email, PASSWORD, "198.51.100.61");
    expect(operatorElsewhere.status).toBe(303);
    expect(operatorElsewhere.headers.get("set-cookie")).toContain("plumbline_session=");
  });
});

describe("the sign-in form's size", () => {
  const MEGABYTE = 1024 * 1024;

  test("a 1 MB sign-in post is answered 413, and nothing is counted or stored", async () => {
    const email = await operator();
    const before = await running.services.db.$count(signInFailures);
    const response = await fetch(`${origin}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      body: `email=${encodeURIComponent(email)}&password=${"x".repeat(MEGABYTE)}`,
      redirect: "manual",
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await running.services.db.$count(signInFailures)).toBe(before);
  });

  test("a 1 MB post without Content-Length is refused once 16 KB have arrived, not held in memory", async () => {
    // Sent in 8 KB chunks, each once the last has gone: a server that read the whole body first would
    // answer only after the last one.
    const chunk = Buffer.alloc(8 * 1024, "x");
    const { status, sentWhenAnswered } = await new Promise<{ status: number; sentWhenAnswered: number }>(
      (resolve, reject) => {
        let sent = 0;
        let answered = false;
        const post = httpRequest(`${origin}/admin/login`, {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: origin,
            "Transfer-Encoding": "chunked",
          },
        });
        post.on("response", (response) => {
          answered = true;
          resolve({ status: response.statusCode!, sentWhenAnswered: sent });
          response.resume();
          post.destroy();
        });
        post.on("error", (error) => (answered ? undefined : reject(error)));
        post.write("email=a%40example.com&password=");
        const sendMore = () => {
          if (answered) return;
          if (sent >= MEGABYTE) return void post.end();
          sent += chunk.length;
          post.write(chunk, () => setTimeout(sendMore, 5));
        };
        sendMore();
      },
    );
    expect(status).toBe(413);
    expect(sentWhenAnswered).toBeLessThan(MEGABYTE / 4);
  });
});

describe("unsafe console requests must prove they are same-origin", () => {
  async function session(): Promise<string> {
    const email = await operator();
    const response = await signIn(email, PASSWORD, "192.0.2.80");
    expect(response.status).toBe(303);
    return response.headers.get("set-cookie")!.split(";")[0]!;
  }
  const signOut = (cookie: string, headers: Record<string, string>) =>
    fetch(`${origin}/admin/logout`, { method: "POST", headers: { Cookie: cookie, ...headers }, redirect: "manual" });
  const isSignedIn = async (cookie: string) =>
    (await fetch(`${origin}/admin`, { headers: { Cookie: cookie }, redirect: "manual" })).status === 200;

  test("with the session cookie but no Origin, a foreign Referer is refused with 403 and changes nothing", async () => {
    const cookie = await session();
    expect((await signOut(cookie, { Referer: "https://evil.example/page" })).status).toBe(403);
    expect((await signOut(cookie, {})).status).toBe(403);
    expect((await signOut(cookie, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect(await isSignedIn(cookie)).toBe(true);
  });

  test("a matching Referer, or Sec-Fetch-Site: same-origin, is accepted when Origin is missing", async () => {
    const first = await session();
    expect((await signOut(first, { Referer: `${origin}/admin` })).status).toBe(303);
    expect(await isSignedIn(first)).toBe(false);
    const second = await session();
    expect((await signOut(second, { "Sec-Fetch-Site": "same-origin" })).status).toBe(303);
    expect(await isSignedIn(second)).toBe(false);
  });

  test("a sign-in without any proof of origin is refused before the password is checked", async () => {
    const email = await operator();
    const response = await fetch(`${origin}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("REQUIRE_TWO_STEP=true", () => {
  let strict: RunningServer;
  beforeAll(async () => {
    strict = await startServer(testEnv({ TRUST_PROXY: "loopback", REQUIRE_TWO_STEP: "true" }));
  });
  afterAll(() => strict?.close());

  test("sends an operator without two-step sign-in to set it up before any other console page", async () => {
    await saveOperator(strict.services.db, "strict@example.com", PASSWORD);
    const signedIn = await fetch(`${strict.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: strict.url },
      body: new URLSearchParams({ email: "strict@example.com", password: PASSWORD }).toString(),
      redirect: "manual",
    });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const get = (path: string) => fetch(`${strict.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    for (const path of ["/admin", "/admin/opt-outs", "/admin/dashboard", "/admin/export/leads.csv"]) {
      const response = await get(path);
      expect([response.status, response.headers.get("location")], path).toEqual([303, "/admin/account"]);
    }
    // A client-side navigation's data request gets the same redirect, in React Router's own format.
    const data = await get("/admin/opt-outs.data");
    expect(data.status).toBe(202);
    const body = await data.text();
    expect(body).toContain("/admin/account");
    const account = await get("/admin/account");
    expect(account.status).toBe(200);
    expect(await account.text()).toContain("Turn on two-step sign-in to use the console");
  });
});

describe("push devices", () => {
  test("an operator cannot point a device's alerts at this machine or a metadata address: 400, nothing stored", async () => {
    const email = await operator();
    const signedIn = await signIn(email, PASSWORD, "192.0.2.81");
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    for (const endpoint of ["https://127.0.0.1:8443/push/x", "https://169.254.169.254/x", "https://localhost/push"]) {
      const response = await fetch(`${origin}/admin/alerts/devices`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie, Origin: origin },
        body: JSON.stringify({
          endpoint,
          keys: {
            p256dh: createECDH("prime256v1").generateKeys().toString("base64url"),
            auth: Buffer.alloc(16, 1).toString("base64url"),
          },
          deviceLabel: "Chrome on Android",
        }),
      });
      expect({ endpoint, status: response.status }).toEqual({ endpoint, status: 400 });
    }
    expect(await running.services.db.$count(pushSubscriptions)).toBe(0);
  });
});

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LEAD_ENDPOINT } from "~/lib/lead-schemas.ts";
import { SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { TRACKING_NUMBER_ENDPOINT } from "~/lib/tracking-number.ts";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { freePort, testEnv } from "../../tooling/local-services.ts";
import { postUntilAnswered } from "../../tooling/large-post.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";
import { startServerProcess, type ServerProcess } from "../../tooling/server-process.ts";
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN } from "../twilio-stand-in.ts";

const MEGABYTE = 1024 * 1024;
const PASSWORD = "a long enough password";

/** Every path the built site routes a POST to: each route that has an action, its parameters filled in. */
async function actionPaths(): Promise<string[]> {
  const build = (await import(pathToFileURL(resolve("build/server/index.js")).href)) as ServerBuild;
  const fullPath = (id: string): string => {
    const route = build.routes[id]!;
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return `${parent}/${route.path ?? ""}`.replace(/\/+/g, "/");
  };
  return Object.entries(build.routes)
    .filter(([, route]) => route?.module.action)
    .map(([id]) => fullPath(id).replace(/:[a-z]+/gi, "00000000-0000-4000-8000-000000000000"));
}

describe("every POST body is capped before it is read, whatever the route", () => {
  let running: RunningServer;
  let cookie: string;
  let paths: string[];
  beforeAll(async () => {
    running = await startServer(
      testEnv({
        // Call tracking on, so that Twilio's webhooks and the number endpoint are there to be tried too.
        TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN,
        TWILIO_API_URL: "http://127.0.0.1:9",
        CALL_FORWARD_TO: "+15550100200",
        CALL_TRACKING_POOL: "+18005550111,+18005550112",
      }),
    );
    await saveOperator(running.services.db, "limits@example.com", PASSWORD);
    const signedIn = await fetch(`${running.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: running.url },
      body: new URLSearchParams({ email: "limits@example.com", password: PASSWORD, next: "/admin" }),
      redirect: "manual",
    });
    cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    paths = [
      ...(await actionPaths()),
      LEAD_ENDPOINT,
      SITE_EVENTS_ENDPOINT,
      TRACKING_NUMBER_ENDPOINT,
      "/api/calls/voice",
      "/api/calls/status",
      "/no-such-page",
    ];
  });
  afterAll(() => running?.close());

  test("the routes tried include every form action: the partner's link, the console's forms and the lead forms", () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        "/r/00000000-0000-4000-8000-000000000000",
        "/contact",
        "/admin/login",
        "/admin/partners",
      ]),
    );
  });

  test("a JSON body to any page's form action is answered, never with an unhandled 500", async () => {
    // Signing out would end the session the console's forms are tried with.
    for (const path of (await actionPaths()).filter((path) => path !== "/admin/logout")) {
      const response = await fetch(`${running.url}${path}`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: running.url, "Content-Type": "application/json" },
        body: JSON.stringify({ intent: "save" }),
        redirect: "manual",
      });
      await response.text();
      expect({ path, failed: response.status >= 500 }).toEqual({ path, failed: false });
    }
  });

  test("the conversions page takes its larger spend file sent with or without scripts (its data URL too)", async () => {
    for (const path of ["/admin/conversions", "/admin/conversions.data", "/admin/conversions/_.data"]) {
      const response = await fetch(`${running.url}${path}`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: running.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "spend-csv", file: "x".repeat(40 * 1024) }),
        redirect: "manual",
      });
      await response.text();
      expect({ path, status: response.status }).not.toEqual({ path, status: 413 });
    }
  });

  test("a body declaring 200 MB gets 413 before the server reads it, on every route", async () => {
    for (const path of paths) {
      const { status, sentWhenAnswered } = await postUntilAnswered(`${running.url}${path}`, {
        bytes: 200 * MEGABYTE,
        declared: true,
        contentType: path === SITE_EVENTS_ENDPOINT ? "text/plain" : undefined,
        headers: { Cookie: cookie },
      });
      expect({ path, status }).toEqual({ path, status: 413 });
      expect(sentWhenAnswered).toBeLessThan(4 * MEGABYTE);
    }
  });

  test("a chunked body with no length is refused once its route's limit has arrived, on every route", async () => {
    for (const path of paths) {
      const { status, sentWhenAnswered } = await postUntilAnswered(`${running.url}${path}`, {
        bytes: 32 * MEGABYTE,
        declared: false,
        // The counted events take the text the page's beacon sends; every other route, a form.
        contentType: path === SITE_EVENTS_ENDPOINT ? "text/plain" : undefined,
        headers: { Cookie: cookie },
      });
      expect({ path, status }).toEqual({ path, status: 413 });
      // Sockets and kernel buffers let a few megabytes go out before the answer arrives, more on a busy machine:
      // what matters is that the server answered long before the whole body was sent.
      expect(sentWhenAnswered).toBeLessThan(16 * MEGABYTE);
    }
  });
});

describe("a flood of large posts to a partner's link", () => {
  let server: ServerProcess;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "plumbline-large-posts-"));
    await makeMigratedFolder(join(dir, "pglite"));
    server = await startServerProcess({ PORT: String(await freePort()), PGLITE_DATA_DIR: join(dir, "pglite") });
  });
  afterAll(async () => {
    await server?.kill("SIGTERM");
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const residentBytes = async () => {
    const status = await readFile(`/proc/${server.child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  };

  test("four 200 MB posts to /r/<anything> at once each get 413 and leave the server's memory where it was", async () => {
    const before = await residentBytes();
    const answers = await Promise.all(
      [true, false, true, false].map((declared) =>
        postUntilAnswered(`${server.url}/r/not-a-token`, { bytes: 200 * MEGABYTE, declared }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([413, 413, 413, 413]);
    expect((await residentBytes()) - before).toBeLessThan(30 * MEGABYTE);
  });
});

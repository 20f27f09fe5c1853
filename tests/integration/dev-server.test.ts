import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { testEnv, validContact } from "../../tooling/local-services.ts";

/** `npm run dev`: the production server's stack, with the app served through Vite. */
describe("development server", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({}), { dev: true });
  }, 60_000);
  afterAll(() => running?.close());

  // The first page compiles the app through Vite: about 5 s on a quiet machine, and 20-30 s or more while the rest
  // of the suite keeps both cores busy.
  test("renders pages without a build", { timeout: 90_000 }, async () => {
    const response = await fetch(`${running.url}/contact`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<form");
  });

  test("stores a lead posted through the contact form", async () => {
    const response = await fetch(`${running.url}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
      body: new URLSearchParams(validContact).toString(),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Message sent successfully!");
    expect(await running.services.db.$count(contactRequests)).toBe(1);
  });

  test("guards the console: a fresh install's console leads to the first operator's set-up", async () => {
    const response = await fetch(`${running.url}/admin`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/setup");
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { issueSetupCode, saveOperator } from "~/server/console/index.server.ts";
import { operators } from "../../app/server/console/schema.server.ts";
import { testEnv } from "../../tooling/local-services.ts";

/** First run: the set-up page takes a code from an instance's log, makes one operator, and is gone after. */
describe("first-run set-up", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({}));
  });
  afterAll(() => running?.close());

  const setUp = (fields: Record<string, string>) =>
    fetch(`${running.url}/admin/setup`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: running.url },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });

  test("before any operator, the console leads to set-up; a wrong code makes nobody", async () => {
    const consoleAnswer = await fetch(`${running.url}/admin`, { redirect: "manual" });
    expect(consoleAnswer.status).toBe(303);
    expect(consoleAnswer.headers.get("location")).toBe("/admin/setup");
    const wrong = await setUp({
      email: "a@example.com",
      password: "a long enough password",
      code: "AAAA-BBBB-CCCC-DDDD",
    });
    expect(wrong.status).toBe(401);
    expect(await running.services.db.$count(operators)).toBe(0);
  });

  test("only the newest set-up code works: one printed earlier the same day makes nobody", async () => {
    const older = await issueSetupCode(running.services.db);
    const newest = await issueSetupCode(running.services.db);
    expect(newest).not.toBe(older);
    const answer = await setUp({ email: "early@example.com", password: "a long enough password", code: older! });
    expect(answer.status).toBe(401);
    expect(await running.services.db.$count(operators)).toBe(0);
  });

  test("two set-ups at once, with the newest code, make one operator; then the page is gone for good", async () => {
    const code = await issueSetupCode(running.services.db);
    const answers = await Promise.all(
      [0, 1].map((index) =>
        setUp({ email: `owner${index}@example.com`, password: "a long enough password", code: code! }),
      ),
    );
    // The second finds the code used up, or the operator already made.
    expect(answers.map((answer) => answer.status).sort()[0]).toBe(303);
    expect([401, 404]).toContain(answers.map((answer) => answer.status).sort()[1]);
    expect(await running.services.db.$count(operators)).toBe(1);
    expect((await fetch(`${running.url}/admin/setup`)).status).toBe(404);
    expect((await fetch(`${running.url}/admin`, { redirect: "manual" })).headers.get("location")).toBe(
      "/admin/login?next=%2Fadmin",
    );
    expect(await issueSetupCode(running.services.db)).toBeNull();
    // The command line keeps working beside it.
    await saveOperator(running.services.db, "second@example.com", "another long password");
    expect(await running.services.db.$count(operators)).toBe(2);
  });
});

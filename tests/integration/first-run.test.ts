import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { issueSetupCode, saveOperator } from "~/server/console/index.server.ts";
import { log } from "~/server/log.server.ts";
import { addPartner } from "~/server/partners/index.server.ts";
import { operators } from "../../app/server/console/schema.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { testEnv } from "../../tooling/local-services.ts";
import { projectPath } from "../../app/server/project-path.server.ts";

/**
 * A server started with no SITE_URL, and what it logged while starting: on PORT 4999, and on PORT 0, where the system
 * picks the port.
 */
describe.each(["4999", "0"])("first start without SITE_URL, PORT=%s", (port) => {
  let running: RunningServer;
  let startLog = "";
  beforeAll(async () => {
    const level = log.level;
    log.level = "info";
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      startLog += String(chunk);
      return true;
    });
    try {
      running = await startServer(testEnv({ PORT: port, HOST: "localhost", SITE_URL: undefined, LOG_LEVEL: "info" }));
    } finally {
      stdout.mockRestore();
      log.level = level;
    }
  });
  afterAll(() => running?.close());

  test("the set-up line and a partner's referral link use the address the server listens on, said once", async () => {
    const address = port === "0" ? running.url : "http://localhost:4999";
    expect(address).toMatch(/^http:\/\/localhost:[1-9]\d*$/);
    const lines = startLog.split("\n").filter(Boolean);
    const setupLine = lines.find((line) => line.includes("set-up code"));
    expect(setupLine).toContain(`${address}/admin/setup`);
    expect(lines.filter((line) => line.includes("SITE_URL is not set"))).toHaveLength(1);
    expect(lines.find((line) => line.includes("SITE_URL is not set"))).toContain(`${address},`);

    const partnerId = await addPartner(running.services.db, {
      name: "Pat",
      serviceFees: {},
      business: "Pat's Pipes",
      phone: "555-010-0000",
      email: "pat@partner.example",
      services: ["Drain Services"],
      zipCodes: ["10001"],
      feeMinor: null,
    });
    const leadId = randomUUID();
    await running.services.db.insert(contactRequests).values({
      id: leadId,
      firstName: "Dana",
      lastName: "Whitfield",
      email: "dana@example.com",
      phone: "(555) 014-2288",
      service: "Drain Services",
      message: "Slow drain",
      zip: "10001",
      consentText: "By submitting…",
      channel: "form",
    });
    const offered = await running.services.referrals.offer({
      leadId,
      partnerIds: [partnerId],
      operatorEmail: "op@example.com",
      optOutConfirmed: false,
    });
    expect(offered.kind).toBe("sent");
    const [offer] = await running.services.db
      .select({ textBody: emailOutbox.textBody })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, "pat@partner.example"));
    expect(offer!.textBody).toContain(`${address}/r/`);
  });
});

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

/**
 * `npm start` builds first. Its build prints no deprecation and no future-flag warning: nothing an operator would
 * have to look into. `npm test` builds before this file runs, into a console this test cannot read, so this builds
 * the site once more, as `npm run build` does, into a folder of its own (about 10 s).
 */
test("npm start's build prints no deprecation and no future-flag warning", async () => {
  const { scripts } = JSON.parse(readFileSync(projectPath("package.json"), "utf8")) as { scripts: { build: string } };
  // React Router's build; the server's bundle after it (esbuild) writes to build/node, which other tests run.
  const reactRouterBuild = scripts.build.split(" && ")[0]!;
  expect(reactRouterBuild).toMatch(/react-router.* build$/);
  // Inside the project, where the prerendering finds the packages the built server imports.
  await mkdir(projectPath("build"), { recursive: true });
  const buildDir = await mkdtemp(projectPath("build", "first-start-"));
  try {
    const { stdout, stderr } = await promisify(execFile)("sh", ["-c", reactRouterBuild], {
      cwd: projectPath(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, BUILD_DIR: buildDir },
      maxBuffer: 16 * 1024 * 1024,
    });
    const output = `${stdout}\n${stderr}`;
    expect(output).toContain("Prerender (html): /about");
    expect(output).not.toMatch(/deprecat/i);
    expect(output).not.toMatch(/future flag/i);
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
});

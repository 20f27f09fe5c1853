import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { saveOperator } from "~/server/console/index.server.ts";
import { setDefaultFee } from "~/server/ledger/index.server.ts";
import { addPartner, saveRoutingSettings, setPartnerActive } from "~/server/partners/index.server.ts";
import { backups } from "../../app/server/backups/schema.server.ts";
import { postJson, testEnv, validContact } from "../../tooling/local-services.ts";
import { onBothDatabases } from "./both-databases.ts";

/**
 * A new install's empty inbox: "Getting started", each step ticked from the site's settings and data (partners and
 * their fees, Twilio, backups downloaded from the console), and gone once the first lead is in.
 */

const STEPS = ["Company name and phone number", "First partner and fees", "Twilio", "Backups copied off the machine"];

/** A signed-in operator's session cookie. */
async function signedIn(running: RunningServer): Promise<string> {
  await saveOperator(running.services.db, "start@operator.example", "correct horse battery staple");
  const session = await running.services.consoleAuth.signIn(
    { email: "start@operator.example", password: "correct horse battery staple" },
    "192.0.2.44",
  );
  if (session.outcome !== "signed-in") throw new Error("sign-in failed");
  return session.setCookie.split(";")[0]!;
}

/** The inbox's "Getting started" as text (null when the inbox shows none), and each step's state. */
async function checklist(running: RunningServer, cookie: string) {
  const html = await (await fetch(`${running.url}/admin`, { headers: { Cookie: cookie } })).text();
  const start = html.indexOf('id="getting-started-heading"');
  if (start < 0) return null;
  const text = html
    .slice(start, html.indexOf("</section>", start))
    .replace(/<[^>]*>/g, "")
    .replace(/&#x27;|&apos;/g, "'");
  const states = Object.fromEntries(
    STEPS.map((step) => [step, new RegExp(`${step}: (Done|To do)`).exec(text)?.[1] ?? "missing"]),
  );
  return { text, states };
}

const partner = (email: string, fees: Partial<Parameters<typeof addPartner>[1]> = {}) => ({
  name: "Pat",
  business: "Pat's Pipes",
  phone: "555-010-0000",
  email,
  services: ["Drain Services"],
  zipCodes: ["10001"],
  feeMinor: null,
  serviceFees: {},
  ...fees,
});

const { drivers } = onBothDatabases();

describe.each(drivers)("Getting started on $name", ({ storage }) => {
  let running: RunningServer;
  let cookie: string;
  let backupDir: string;
  beforeAll(async () => {
    backupDir = await mkdtemp(join(tmpdir(), "plumbline-getting-started-"));
    running = await startServer(testEnv({ ...(await storage()), BACKUP_DIR: backupDir }));
    cookie = await signedIn(running);
  });
  afterAll(async () => {
    await running?.close();
    await rm(backupDir, { recursive: true, force: true });
  });
  const db = () => running.services.db;
  const states = async () => (await checklist(running, cookie))?.states;

  test("a new install: nothing done, each step saying what to do", async () => {
    const shown = await checklist(running, cookie);
    expect(shown?.states).toEqual(Object.fromEntries(STEPS.map((step) => [step, "To do"])));
    expect(shown?.text).toContain("0 of 4 done");
    expect(shown?.text).toContain("COMPANY_NAME");
    expect(shown?.text).toContain("CALL_FORWARD_TO in .env and run npm start (docs/guides/calls.md).");
  });

  test("first partner and fees: done once an active partner would be charged for a referral or a call", async () => {
    const step = async () => (await states())?.["First partner and fees"];
    const free = await addPartner(db(), partner("free@partner.example"));
    expect(await step()).toBe("To do");

    await setDefaultFee(db(), 5500);
    expect(await step()).toBe("Done");
    await setPartnerActive(db(), free, false);
    expect(await step()).toBe("To do");
    await setDefaultFee(db(), 0);

    // A fee for one service is a fee.
    const perService = await addPartner(db(), partner("service@partner.example", { serviceFees: { Leak: 4000 } }));
    expect(await step()).toBe("Done");
    await setPartnerActive(db(), perService, false);

    // A default fee per call counts for a partner who takes calls only.
    await saveRoutingSettings(db(), { routeCalls: false, defaultCallFeeMinor: 3000, referAutomatically: false });
    const noCalls = await addPartner(db(), partner("nocalls@partner.example", { takesCalls: false }));
    expect(await step()).toBe("To do");
    await setPartnerActive(db(), noCalls, false);
    await addPartner(db(), partner("calls@partner.example", { takesCalls: true }));
    expect(await step()).toBe("Done");
  });

  describe("backups copied off the machine", () => {
    const step = async () => (await states())?.["Backups copied off the machine"];
    const download = (name: string) => fetch(`${running.url}/admin/backups/${name}`, { headers: { Cookie: cookie } });
    /** A backup's row and its file (with its checksum) in BACKUP_DIR, as the site makes them. */
    async function backupMade(at: Date, verified: boolean, bytes = randomBytes(4 * 1024 * 1024)) {
      const stamp = at
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
      const file = `plumbline-${stamp}.pglite.gz`;
      await writeFile(join(backupDir, file), bytes, { mode: 0o600 });
      await writeFile(join(backupDir, `${file}.sha256`), `abc  ${file}\n`, { mode: 0o600 });
      await db()
        .insert(backups)
        .values({ file, createdAt: at, sizeBytes: bytes.length, counts: {}, verifiedAt: verified ? at : null });
      return { file, bytes };
    }
    const downloadedAt = async (file: string) =>
      (await db().select({ at: backups.downloadedAt }).from(backups).where(eq(backups.file, file)))[0]?.at ?? null;

    test("a verified backup downloaded whole ticks it; cut short, or only its checksum, does not", async () => {
      const { file, bytes } = await backupMade(new Date(Date.now() - 60_000), true);

      const checksum = await download(`${file}.sha256`);
      expect(checksum.status).toBe(200);
      expect(await checksum.text()).toBe(`abc  ${file}\n`);
      expect(await downloadedAt(file)).toBeNull();

      const cut = await download(file);
      expect(cut.status).toBe(200);
      const reader = cut.body!.getReader();
      await reader.read();
      await reader.cancel();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await downloadedAt(file)).toBeNull();
      expect(await step()).toBe("To do");

      const whole = await download(file);
      expect(whole.status).toBe(200);
      expect(whole.headers.get("content-type")).toBe("application/gzip");
      expect(whole.headers.get("content-disposition")).toBe(`attachment; filename="${file}"`);
      expect(whole.headers.get("content-encoding")).toBeNull();
      expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
      await expect.poll(() => downloadedAt(file)).not.toBeNull();
      expect(await step()).toBe("Done");
      expect((await checklist(running, cookie))?.text).toContain("A verified backup was downloaded on");

      // A week on, the copy off the machine is out of date.
      await db()
        .update(backups)
        .set({ downloadedAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
        .where(eq(backups.file, file));
      expect(await step()).toBe("To do");
      expect((await checklist(running, cookie))?.text).toContain("over a week ago");
    });

    test("a backup that did not verify is no copy: downloaded, it ticks nothing", async () => {
      const { file } = await backupMade(new Date(), false);
      const answer = await download(file);
      await answer.arrayBuffer();
      await expect.poll(() => downloadedAt(file)).not.toBeNull();
      expect(await step()).toBe("To do");
    });

    test("only the site's own backups are sent, to operators: unknown names, paths and files gone from the folder are 404", async () => {
      for (const name of ["plumbline-20200101T000000Z.pglite.gz", "..%2F..%2Fetc%2Fpasswd", "session-secret"]) {
        expect((await download(name)).status, name).toBe(404);
      }
      const { file } = await backupMade(new Date(Date.now() - 120_000), true);
      await rm(join(backupDir, file));
      const gone = await download(file);
      expect(gone.status).toBe(404);
      expect(await gone.text()).toContain("not in this server's backup folder");
      // Signed out, the sign-in page.
      const signedOut = await fetch(`${running.url}/admin/backups/${file}.sha256`, { redirect: "manual" });
      expect(signedOut.status).toBe(303);
    });
  });

  test("the first lead takes the inbox: no checklist once there is one", async () => {
    expect(await checklist(running, cookie)).not.toBeNull();
    expect((await postJson(running.url, validContact)).status).toBe(200);
    expect(await checklist(running, cookie)).toBeNull();
  });
});

test("Twilio: done when the site runs with Twilio's account and call forwarding set", async () => {
  const running = await startServer(
    testEnv({
      TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`,
      TWILIO_AUTH_TOKEN: "a-twilio-auth-token-for-tests",
      CALL_FORWARD_TO: "+15555550100",
    }),
  );
  try {
    const shown = await checklist(running, await signedIn(running));
    expect(shown?.states.Twilio).toBe("Done");
    expect(shown?.text).toContain("1 of 4 done");
  } finally {
    await running.close();
  }
});

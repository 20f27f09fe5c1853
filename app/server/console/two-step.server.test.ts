import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totpCode } from "../../../tooling/totp.ts";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { createConsoleAuth, type ConsoleAuth } from "./auth.server.ts";
import { saveOperator } from "./operators.server.ts";
import { operatorRecoveryCodes, operators } from "./schema.server.ts";
import { resetTwoStep, turnOnTwoStep, twoStepSetup } from "./two-step.server.ts";

let database: OpenDatabase;
let auth: ConsoleAuth;
const PASSWORD = "a long enough password";
let n = 0;
/** The key of the session the account page is open in. */
const SESSION = "session-key-a";

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  auth = createConsoleAuth({ db: database.db, sessionSecret: "s".repeat(32), siteUrl: "https://site.example" });
});
afterAll(() => database.close());

/** An operator with two-step sign-in turned on, its secret, and its recovery codes. */
async function withTwoStep() {
  const email = `two-step-${(n += 1)}@example.com`;
  await saveOperator(database.db, email, PASSWORD);
  const [{ id }] = (await database.db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.email, email))) as [{ id: string }];
  const { secret, qrSvg } = (await twoStepSetup(database.db, { id, email, sessionKey: SESSION }, "Plumbline"))!;
  expect(qrSvg).toMatch(/^<svg /);
  const turnedOn = await turnOnTwoStep(database.db, { id, sessionKey: SESSION }, totpCode(secret));
  if (turnedOn.outcome !== "on") throw new Error(turnedOn.outcome);
  return { email, id, secret, recoveryCodes: turnedOn.recoveryCodes };
}

/** Signs in with the password, then the code; the result of the second step. */
async function signInWithCode(email: string, code: string, ip = "192.0.2.1") {
  const first = await auth.signIn({ email, password: PASSWORD }, ip);
  if (first.outcome !== "code-needed") throw new Error(first.outcome);
  return auth.verifyCode({ pending: first.pending, code }, ip);
}

describe("two-step sign-in", () => {
  test("turns on only with a code from the app, and keeps only hashes of ten recovery codes", async () => {
    const email = `turn-on-${(n += 1)}@example.com`;
    await saveOperator(database.db, email, PASSWORD);
    const [{ id }] = (await database.db
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.email, email))) as [{ id: string }];
    const session = { id, sessionKey: SESSION };
    expect(await turnOnTwoStep(database.db, session, "123456")).toEqual({ outcome: "wrong-code" });
    const { secret } = (await twoStepSetup(database.db, { ...session, email }, "Plumbline"))!;
    // The page shows the session the same secret on every visit until it is turned on.
    expect((await twoStepSetup(database.db, { ...session, email }, "Plumbline"))!.secret).toBe(secret);
    const wrong = totpCode(secret) === "000000" ? "111111" : "000000";
    expect(await turnOnTwoStep(database.db, session, wrong)).toEqual({ outcome: "wrong-code" });
    const on = await turnOnTwoStep(database.db, session, totpCode(secret));
    expect(on.outcome).toBe("on");
    if (on.outcome !== "on") return;
    expect(on.recoveryCodes).toHaveLength(10);
    expect(new Set(on.recoveryCodes).size).toBe(10);
    const stored = await database.db
      .select()
      .from(operatorRecoveryCodes)
      .where(eq(operatorRecoveryCodes.operatorId, id));
    expect(stored).toHaveLength(10);
    for (const code of on.recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    expect(await turnOnTwoStep(database.db, session, totpCode(secret, 1))).toEqual({ outcome: "already-on" });
    expect(await twoStepSetup(database.db, { ...session, email }, "Plumbline")).toBeNull();
  });

  test("sign-in asks for the code after the password, and a code from the app signs in", async () => {
    const { email, secret } = await withTwoStep();
    // The code used to turn it on was this step's: the next one is the app's next code.
    const result = await signInWithCode(email, totpCode(secret, 1));
    expect(result.outcome).toBe("signed-in");
  });

  test("a code that has been used cannot be used again, nor an older one", async () => {
    const { email, secret } = await withTwoStep();
    expect((await signInWithCode(email, totpCode(secret, 1), "192.0.2.2")).outcome).toBe("signed-in");
    expect((await signInWithCode(email, totpCode(secret, 1), "192.0.2.2")).outcome).toBe("wrong-code");
    expect((await signInWithCode(email, totpCode(secret, 0), "192.0.2.2")).outcome).toBe("wrong-code");
  });

  test("the same code sent twice at once signs in only once", async () => {
    const { email, secret } = await withTwoStep();
    const first = await auth.signIn({ email, password: PASSWORD }, "192.0.2.3");
    if (first.outcome !== "code-needed") throw new Error(first.outcome);
    const code = totpCode(secret, 1);
    const results = await Promise.all([1, 2].map(() => auth.verifyCode({ pending: first.pending, code }, "192.0.2.3")));
    expect(results.map((result) => result.outcome).sort()).toEqual(["signed-in", "wrong-code"]);
  });

  test("a recovery code works once, in any case and with or without its dash", async () => {
    const { email, recoveryCodes } = await withTwoStep();
    const code = recoveryCodes[3]!;
    expect((await signInWithCode(email, ` ${code.toUpperCase().replace("-", "")} `, "192.0.2.4")).outcome).toBe(
      "signed-in",
    );
    expect((await signInWithCode(email, code, "192.0.2.4")).outcome).toBe("wrong-code");
    expect((await signInWithCode(email, recoveryCodes[4]!, "192.0.2.4")).outcome).toBe("signed-in");
  });

  test("wrong codes count toward the sign-in limit", async () => {
    const { email, secret } = await withTwoStep();
    const first = await auth.signIn({ email, password: PASSWORD }, "192.0.2.5");
    if (first.outcome !== "code-needed") throw new Error(first.outcome);
    const right = totpCode(secret, 1);
    const wrong = right === "123456" ? "654321" : "123456";
    const outcomes = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      outcomes.push((await auth.verifyCode({ pending: first.pending, code: wrong }, "192.0.2.5")).outcome);
    }
    // The right password's try still counts until the code is right: with it, five attempts.
    expect(outcomes).toEqual(Array(4).fill("wrong-code"));
    expect((await auth.verifyCode({ pending: first.pending, code: right }, "192.0.2.5")).outcome).toBe("locked");
  });

  test("a forged or altered pending sign-in is refused: the password has to be given again", async () => {
    const { email, secret } = await withTwoStep();
    const first = await auth.signIn({ email, password: PASSWORD }, "192.0.2.6");
    if (first.outcome !== "code-needed") throw new Error(first.outcome);
    const [payload, signature] = first.pending.split(".");
    const other = Buffer.from(JSON.stringify({ id: "someone-else", email, expires: 9e9 })).toString("base64url");
    // The altered signature's first character is always a different one (a signature may itself start with "x").
    const altered = `${signature!.startsWith("x") ? "y" : "x"}${signature!.slice(1)}`;
    for (const pending of [`${other}.${signature}`, `${payload}.${altered}`, "", 42]) {
      expect(await auth.verifyCode({ pending, code: totpCode(secret, 1) }, "192.0.2.6")).toEqual({
        outcome: "expired",
      });
    }
  });

  test("reset-2fa turns it off: the password alone signs in again, and the recovery codes are gone", async () => {
    const { email, id, secret } = await withTwoStep();
    expect(await resetTwoStep(database.db, email)).toBe(true);
    expect((await auth.signIn({ email, password: PASSWORD }, "192.0.2.7")).outcome).toBe("signed-in");
    // Turning it on again starts from a new secret.
    expect((await twoStepSetup(database.db, { id, email, sessionKey: SESSION }, "Plumbline"))!.secret).not.toBe(secret);
    expect(await database.db.$count(operatorRecoveryCodes, eq(operatorRecoveryCodes.operatorId, id))).toBe(0);
    expect(await resetTwoStep(database.db, "nobody@example.com")).toBe(false);
  });

  test("with the password known, the code step gets no more guesses than the lock-out allows", async () => {
    const { email, secret } = await withTwoStep();
    const right = totpCode(secret, 1);
    const wrong = right === "123456" ? "654321" : "123456";
    let codeGuesses = 0;
    for (let round = 0; round < 10; round += 1) {
      const first = await auth.signIn({ email, password: PASSWORD }, "192.0.2.8");
      if (first.outcome !== "code-needed") break;
      const second = await auth.verifyCode({ pending: first.pending, code: wrong }, "192.0.2.8");
      if (second.outcome !== "wrong-code") break;
      codeGuesses += 1;
    }
    // Five failed attempts lock the network out of the account: each round's password and code both count.
    expect(codeGuesses).toBeLessThanOrEqual(3);
    expect((await auth.signIn({ email, password: PASSWORD }, "192.0.2.8")).outcome).toBe("locked");
  });

  test("a pending second step issued before a new password, or before two-step was reset, no longer works", async () => {
    const { email, id, secret } = await withTwoStep();
    const beforeReset = await auth.signIn({ email, password: PASSWORD }, "192.0.2.9");
    if (beforeReset.outcome !== "code-needed") throw new Error(beforeReset.outcome);
    await saveOperator(database.db, email, PASSWORD);
    expect(await auth.verifyCode({ pending: beforeReset.pending, code: totpCode(secret, 1) }, "192.0.2.9")).toEqual({
      outcome: "expired",
    });

    const beforeTwoStepReset = await auth.signIn({ email, password: PASSWORD }, "192.0.2.10");
    if (beforeTwoStepReset.outcome !== "code-needed") throw new Error(beforeTwoStepReset.outcome);
    await resetTwoStep(database.db, email);
    const again = (await twoStepSetup(database.db, { id, email, sessionKey: SESSION }, "Plumbline"))!;
    expect((await turnOnTwoStep(database.db, { id, sessionKey: SESSION }, totpCode(again.secret))).outcome).toBe("on");
    expect(
      await auth.verifyCode({ pending: beforeTwoStepReset.pending, code: totpCode(again.secret, 1) }, "192.0.2.10"),
    ).toEqual({ outcome: "expired" });
  });

  test("each setup gets its own secret: another session is shown a new one, and cannot turn on the first", async () => {
    const email = `setup-${(n += 1)}@example.com`;
    await saveOperator(database.db, email, PASSWORD);
    const [{ id }] = (await database.db
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.email, email))) as [{ id: string }];
    const mine = (await twoStepSetup(database.db, { id, email, sessionKey: "mine" }, "Plumbline"))!;
    const theirs = (await twoStepSetup(database.db, { id, email, sessionKey: "theirs" }, "Plumbline"))!;
    expect(theirs.secret).not.toBe(mine.secret);
    // The first session's secret is gone with its setup; its code turns nothing on.
    expect(await turnOnTwoStep(database.db, { id, sessionKey: "mine" }, totpCode(mine.secret))).toEqual({
      outcome: "wrong-code",
    });
    expect(await turnOnTwoStep(database.db, { id, sessionKey: "mine" }, totpCode(theirs.secret))).toEqual({
      outcome: "wrong-code",
    });
    expect((await turnOnTwoStep(database.db, { id, sessionKey: "theirs" }, totpCode(theirs.secret))).outcome).toBe(
      "on",
    );
  });

  test("turning two-step sign-in on ends the operator's other sessions and keeps this one", async () => {
    const email = `sessions-${(n += 1)}@example.com`;
    await saveOperator(database.db, email, PASSWORD);
    const here = await signedInSession(email);
    const elsewhere = await signedInSession(email);
    const operator = (await auth.sessions.resolve(here))!;
    const { secret } = (await twoStepSetup(database.db, operator, "Plumbline"))!;
    expect((await auth.turnOnTwoStep(operator, totpCode(secret))).outcome).toBe("on");
    expect(await auth.sessions.resolve(elsewhere)).toBeNull();
    expect(await auth.sessions.resolve(here)).toMatchObject({ email, twoStep: true });
  });
});

/** A session of the operator, signed in with the password alone; its id as the cookie holds it. */
async function signedInSession(email: string): Promise<string> {
  const result = await auth.signIn({ email, password: PASSWORD }, "192.0.2.11");
  if (result.outcome !== "signed-in") throw new Error(result.outcome);
  return /=([^;]+)/.exec(result.setCookie)![1]!;
}

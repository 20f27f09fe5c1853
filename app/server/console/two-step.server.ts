import { createHash, randomInt } from "node:crypto";
import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { renderSVG } from "uqr";
import type { Database } from "../db/index.server.ts";
import { operatorRecoveryCodes, operators } from "./schema.server.ts";

/**
 * Two-step sign-in: after the password, a code from an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits,
 * 30-second steps, the settings every app understands), or one of ten one-time recovery codes.
 */
const TOTP = { period: 30, digits: 6, algorithm: "SHA-1" } as const;
/** Codes one step either side of now are accepted, for a phone's clock a little off. */
const WINDOW_STEPS = 1;
const RECOVERY_CODE_COUNT = 10;
/** Recovery codes use letters and digits that cannot be mistaken for each other. */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export interface TwoStepSetup {
  secret: string;
  /** The QR code of the otpauth:// address, as an SVG drawn on the server. */
  qrSvg: string;
}

/** The operator setting two-step sign-in up, in the session they do it from. */
interface SettingUp {
  id: string;
  email: string;
  sessionKey: string;
}

/**
 * The secret for an operator about to turn two-step sign-in on, with its QR code for their app: made for this
 * session on its first visit and kept for it until it is turned on, so a reload shows the secret their app may
 * already hold. Any other session (another device, a later sign-in, someone else with the password) gets a new
 * secret, and only the session a secret was made for can turn it on. Null once it is on.
 */
export async function twoStepSetup(db: Database, operator: SettingUp, issuer: string): Promise<TwoStepSetup | null> {
  const { secret: fresh } = await generateTOTP(TOTP);
  const sameSession = and(
    isNotNull(operators.totpPendingSecret),
    eq(operators.totpPendingSession, operator.sessionKey),
  );
  const [kept] = await db
    .update(operators)
    .set({
      totpPendingSecret: sql`CASE WHEN ${sameSession} THEN ${operators.totpPendingSecret} ELSE ${fresh} END`,
      totpPendingSession: operator.sessionKey,
    })
    .where(and(eq(operators.id, operator.id), isNull(operators.totpSecret)))
    .returning({ secret: operators.totpPendingSecret });
  const secret = kept?.secret;
  if (!secret) return null;
  const uri = getTOTPAuthUri({ ...TOTP, secret, accountName: operator.email, issuer });
  return { secret, qrSvg: renderSVG(uri, { pixelSize: 4 }) };
}

/** The 30-second step a code was made in, when it is one of the codes accepted now for `secret`. */
async function stepOf(secret: string, code: string): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const verified = await verifyTOTP({ ...TOTP, otp: code, secret, window: WINDOW_STEPS });
  return verified ? Math.floor(Date.now() / 1000 / TOTP.period) + verified.delta : undefined;
}

const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");
const hashRecoveryCode = (code: string) => createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");

function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${characters.slice(0, 5).join("")}-${characters.slice(5).join("")}`;
}

export type TurnOnOutcome =
  { outcome: "on"; recoveryCodes: string[] } | { outcome: "wrong-code" } | { outcome: "already-on" };

/**
 * Turns two-step sign-in on with the secret the account page showed this session, once `code` shows the
 * operator's app has it; returns the ten recovery codes, which are shown this once: only their hashes are kept.
 */
export async function turnOnTwoStep(
  db: Database,
  setting: Omit<SettingUp, "email">,
  code: string,
): Promise<TurnOnOutcome> {
  const operatorId = setting.id;
  const [operator] = await db
    .select({ on: operators.totpSecret, pending: operators.totpPendingSecret, session: operators.totpPendingSession })
    .from(operators)
    .where(eq(operators.id, operatorId));
  if (operator?.on) return { outcome: "already-on" };
  const secret = operator?.session === setting.sessionKey ? operator.pending : null;
  const step = secret ? await stepOf(secret, code.trim()) : undefined;
  if (!secret || step === undefined) return { outcome: "wrong-code" };
  const turnedOn = await db
    .update(operators)
    .set({ totpSecret: secret, totpPendingSecret: null, totpPendingSession: null, totpLastStep: step })
    .where(and(eq(operators.id, operatorId), isNull(operators.totpSecret), eq(operators.totpPendingSecret, secret)))
    .returning({ id: operators.id });
  if (turnedOn.length === 0) return { outcome: "already-on" };
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
  await db
    .insert(operatorRecoveryCodes)
    .values(recoveryCodes.map((recoveryCode) => ({ operatorId, codeHash: hashRecoveryCode(recoveryCode) })));
  return { outcome: "on", recoveryCodes };
}

/**
 * Whether `code` is the operator's second step: a code from their app not accepted before (its step is
 * recorded in the same statement that checks it, so a code seen over a shoulder, or sent twice at once,
 * works only once), or an unused recovery code, which is used up.
 */
export async function verifySecondStep(db: Database, operatorId: string, code: string): Promise<boolean> {
  const typed = code.trim();
  const [operator] = await db
    .select({ secret: operators.totpSecret })
    .from(operators)
    .where(eq(operators.id, operatorId));
  if (!operator?.secret) return false;
  const step = await stepOf(operator.secret, typed);
  if (step !== undefined) {
    const accepted = await db
      .update(operators)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(operators.id, operatorId),
          isNotNull(operators.totpSecret),
          or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step)),
        ),
      )
      .returning({ id: operators.id });
    return accepted.length > 0;
  }
  if (typed.length > 64) return false;
  const used = await db
    .delete(operatorRecoveryCodes)
    .where(
      and(
        eq(operatorRecoveryCodes.operatorId, operatorId),
        eq(operatorRecoveryCodes.codeHash, hashRecoveryCode(typed)),
      ),
    )
    .returning({ operatorId: operatorRecoveryCodes.operatorId });
  return used.length > 0;
}

/** `npm run operator -- reset-2fa EMAIL`: turns two-step sign-in off for an operator who lost their phone. */
export async function resetTwoStep(db: Database, email: string): Promise<boolean> {
  const reset = await db
    .update(operators)
    .set({ totpSecret: null, totpPendingSecret: null, totpPendingSession: null, totpLastStep: null })
    .where(eq(operators.email, email))
    .returning({ id: operators.id });
  if (reset.length === 0) return false;
  await db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, reset[0]!.id));
  return true;
}

import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { operators, operatorSessions } from "./schema.server.ts";
import { hashPassword, verifyPassword } from "./passwords.server.ts";
import { createHash } from "node:crypto";

/**
 * Creates the operator, or sets a new password for an existing one and ends its sessions (a reset is
 * what an operator does after losing a device). Returns whether the account is new.
 */
export async function saveOperator(db: Database, email: string, password: string): Promise<{ created: boolean }> {
  const passwordHash = await hashPassword(password);
  const [saved] = await db
    .insert(operators)
    .values({ id: randomUUID(), email, passwordHash })
    .onConflictDoUpdate({ target: operators.email, set: { passwordHash } })
    // xmax is 0 on a freshly inserted row, and set on one an upsert updated.
    .returning({ id: operators.id, created: sql<boolean>`xmax = 0` });
  if (!saved!.created) await db.delete(operatorSessions).where(eq(operatorSessions.operatorId, saved!.id));
  return { created: Boolean(saved!.created) };
}

export function listOperators(db: Database) {
  return db
    .select({ email: operators.email, createdAt: operators.createdAt })
    .from(operators)
    .orderBy(asc(operators.email));
}

/** Deletes the operator; its sessions go with it (ON DELETE CASCADE), so it is signed out everywhere. */
export async function removeOperator(db: Database, email: string): Promise<boolean> {
  const removed = await db.delete(operators).where(eq(operators.email, email)).returning({ id: operators.id });
  return removed.length > 0;
}

/** An operator whose password was right, with the stamp of the credentials it was right for. */
export interface Authenticated {
  id: string;
  email: string;
  twoStep: boolean;
  stamp: string;
}

/**
 * A digest of the operator's password hash and two-step secret: it changes when either does (a new password, two-step
 * turned on, off or reset), so whatever was issued under the old ones (a pending second step) stops working.
 */
const stampOf = (passwordHash: string, totpSecret: string | null) =>
  createHash("sha256")
    .update(`${passwordHash}\0${totpSecret ?? ""}`)
    .digest("base64url");

/** The operator's credentials stamp now, or null when the operator is gone. */
export async function credentialsStamp(db: Database, operatorId: string): Promise<string | null> {
  const [found] = await db
    .select({ passwordHash: operators.passwordHash, totpSecret: operators.totpSecret })
    .from(operators)
    .where(eq(operators.id, operatorId));
  return found ? stampOf(found.passwordHash, found.totpSecret) : null;
}

/** The operator with this email and password, or null; as slow for an unknown email as for a wrong password. */
export async function authenticate(db: Database, email: string, password: string): Promise<Authenticated | null> {
  const [found] = await db
    .select({
      id: operators.id,
      email: operators.email,
      passwordHash: operators.passwordHash,
      totpSecret: operators.totpSecret,
    })
    .from(operators)
    .where(eq(operators.email, email));
  const matches = await verifyPassword(found?.passwordHash, password);
  if (!found || !matches) return null;
  return {
    id: found.id,
    email: found.email,
    twoStep: found.totpSecret !== null,
    stamp: stampOf(found.passwordHash, found.totpSecret),
  };
}

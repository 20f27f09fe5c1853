import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { executeRows, type Database } from "../db/index.server.ts";
import { operatorEmail, passwordProblem } from "~/lib/operator-account.ts";
import { hashPassword } from "./passwords.server.ts";
import { firstOperatorClaim, operators, operatorSetupCodes } from "./schema.server.ts";

/**
 * First-run set-up: while no operator exists, the console offers "Create the first operator", which takes the
 * one-time set-up code the server printed in its log at start. Once an operator exists, by this page or by
 * `npm run operator -- add`, the page is gone for good.
 */

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const hashOf = (code: string) =>
  createHash("sha256")
    .update(code.toUpperCase().replace(/[^A-Z0-9]/g, ""))
    .digest("hex");

export async function hasOperator(db: Database): Promise<boolean> {
  const [row] = await executeRows<{ found: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM ${operators}) AS found`);
  return Boolean(row?.found);
}

/**
 * A new set-up code for this instance's log, or null once an operator exists. 16 letters and digits: 80 bits.
 * Only the newest code printed works: the codes printed before it are void from then on.
 */
export async function issueSetupCode(db: Database): Promise<string | null> {
  if (await hasOperator(db)) return null;
  const bytes = randomBytes(16);
  const code = [...bytes]
    .map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length])
    .join("")
    .replace(/(.{4})(?=.)/g, "$1-");
  await db.execute(sql`WITH older AS (DELETE FROM ${operatorSetupCodes})
    INSERT INTO ${operatorSetupCodes} (${sql.identifier(operatorSetupCodes.codeHash.name)}) VALUES (${hashOf(code)})`);
  return code;
}

export type FirstOperatorOutcome =
  | { kind: "created" }
  | { kind: "invalid"; errors: Partial<Record<"email" | "password" | "code", string>> }
  | { kind: "wrong-code" }
  | { kind: "exists" };

/**
 * "Create the first operator": the code is used up, the set-up claimed and the operator made in one statement,
 * only while no operator exists; a second set-up racing it finds the claim taken, and makes nobody.
 */
export async function createFirstOperator(
  db: Database,
  form: { email: unknown; password: unknown; code: unknown },
): Promise<FirstOperatorOutcome> {
  if (await hasOperator(db)) return { kind: "exists" };
  const email = operatorEmail.safeParse(form.email);
  const password = typeof form.password === "string" ? form.password : "";
  const code = typeof form.code === "string" ? form.code.trim() : "";
  const errors: Partial<Record<"email" | "password" | "code", string>> = {};
  if (!email.success) errors.email = "Enter your email address, like pat@example.com.";
  const problem = passwordProblem(password);
  if (problem) errors.password = problem;
  if (code === "" || code.length > 40) errors.code = "Enter the set-up code from the server's log.";
  if (!email.success || Object.keys(errors).length > 0) return { kind: "invalid", errors };
  const passwordHash = await hashPassword(password);
  const column = (name: { name: string }) => sql.identifier(name.name);
  const [result] = await executeRows<{ code_used: number; created: number }>(
    db,
    sql`WITH code AS (
      DELETE FROM ${operatorSetupCodes} WHERE ${operatorSetupCodes.codeHash} = ${hashOf(code)}
        AND ${operatorSetupCodes.createdAt} > now() - interval '24 hours'
        -- Two instances starting at once may each keep a code: only the newer one works.
        AND NOT EXISTS (SELECT 1 FROM ${operatorSetupCodes} newer
          WHERE newer.${sql.identifier(operatorSetupCodes.createdAt.name)} > ${operatorSetupCodes.createdAt})
      RETURNING 1
    ),
    claimed AS (
      INSERT INTO ${firstOperatorClaim} (${column(firstOperatorClaim.id)})
      SELECT 1 FROM code WHERE NOT EXISTS (SELECT 1 FROM ${operators})
      ON CONFLICT DO NOTHING RETURNING 1
    ),
    created AS (
      INSERT INTO ${operators} (${column(operators.id)}, ${column(operators.email)}, ${column(operators.passwordHash)})
      SELECT ${randomUUID()}::uuid, ${email.data}, ${passwordHash} FROM claimed RETURNING 1
    )
    SELECT (SELECT count(*) FROM code)::int AS code_used, (SELECT count(*) FROM created)::int AS created`,
  );
  if (result?.created) return { kind: "created" };
  return result?.code_used ? { kind: "exists" } : { kind: "wrong-code" };
}

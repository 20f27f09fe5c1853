import { like, lt, or, eq, sql } from "drizzle-orm";
import { executeRows, type Database, sqlNames } from "../db/index.server.ts";
import { clientKey } from "../limits/index.server.ts";
import { signInFailures } from "./schema.server.ts";

/**
 * How many sign-in attempts are let through (docs/decisions/105-sign-in-limits-without-lock-out.md):
 * - per account and client (an IPv4 address, or an IPv6 /64): 5 in 15 minutes;
 * - per client, whatever the account: 20 in 15 minutes (one network guessing at many emails);
 * - per account, from everywhere: 50 in an hour, then one more after 1 s, 2 s, 4 s… (at most 15 minutes
 *   apart) until the hour is over.
 * An attacker failing from one network therefore locks out only that network, never the operator elsewhere.
 */
const SIGN_IN_LIMITS = {
  perAccountAndClient: { attempts: 5, windowSeconds: 15 * 60 },
  perClient: { attempts: 20, windowSeconds: 15 * 60 },
  perAccount: { attempts: 50, windowSeconds: 60 * 60, longestBackoffSeconds: 15 * 60 },
} as const;

export type SignInAttempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInLimit {
  /**
   * Counts an attempt (a password or a code about to be checked) before it is checked, in one statement, so
   * that parallel attempts cannot all pass a check made before any of them was counted.
   */
  attempt(account: string, clientIp: string): Promise<SignInAttempt>;
  /**
   * A correct password or code: the operator's own network starts afresh for this account, and the attempt
   * is taken back from the client's and the account's counts (not more: a success must not hand a
   * distributed guesser a fresh allowance).
   */
  succeeded(account: string, clientIp: string): Promise<void>;
  /** `npm run operator -- unlock EMAIL`: forgets the account's attempts, from everywhere. */
  unlock(account: string): Promise<void>;
  prune(): Promise<void>;
}

const f = sqlNames(signInFailures);
const { perAccountAndClient, perClient, perAccount } = SIGN_IN_LIMITS;

const keysOf = (account: string, clientIp: string) => {
  const client = clientKey(clientIp);
  return { pair: `pair:${account}|${client}`, client: `ip:${client}`, account: `account:${account}` };
};

const expired = (windowSeconds: number) => `f.${f.windowStartedAt} <= now() - ${windowSeconds} * interval '1 second'`;
/** The wait the account's backoff asks for after its attempt number `failures` (past the hourly allowance). */
const backoffSeconds = `least(power(2, f.${f.failures} - ${perAccount.attempts}), ${perAccount.longestBackoffSeconds})`;

/**
 * One key's upsert, counting the attempt only when the key allows it (a row comes back only then). `after`
 * names the earlier key that must have counted it first: a key further down the chain is not charged for an
 * attempt an earlier key refused, so hammering from a locked-out network never adds to the account's count.
 */
function countIn(name: string, param: string, after: string | undefined, windowSeconds: number, allows: string) {
  return `${name} AS (
  INSERT INTO ${f.table} AS f (${f.key}, ${f.windowStartedAt}, ${f.failures}, ${f.lastAttemptAt})
  SELECT ${param}, now(), 1, now() ${after ? `WHERE EXISTS (SELECT 1 FROM ${after})` : ""}
  ON CONFLICT (${f.key}) DO UPDATE SET
    ${f.failures} = CASE WHEN ${expired(windowSeconds)} THEN 1 ELSE f.${f.failures} + 1 END,
    ${f.windowStartedAt} = CASE WHEN ${expired(windowSeconds)} THEN now() ELSE f.${f.windowStartedAt} END,
    ${f.lastAttemptAt} = now()
  WHERE ${expired(windowSeconds)} OR ${allows}
  RETURNING 1
)`;
}

const COUNT_ATTEMPT = `WITH ${[
  countIn(
    "pair_counted",
    "$1",
    undefined,
    perAccountAndClient.windowSeconds,
    `f.${f.failures} < ${perAccountAndClient.attempts}`,
  ),
  countIn("client_counted", "$2", "pair_counted", perClient.windowSeconds, `f.${f.failures} < ${perClient.attempts}`),
  countIn(
    "account_counted",
    "$3",
    "client_counted",
    perAccount.windowSeconds,
    `(f.${f.failures} < ${perAccount.attempts} OR now() >= f.${f.lastAttemptAt} + ${backoffSeconds} * interval '1 second')`,
  ),
].join(",\n")}
SELECT EXISTS (SELECT 1 FROM account_counted) AS allowed`;

/** Seconds until each refusing key lets an attempt through again (read after a refusal, to tell the client). */
const WAIT = `SELECT max(ceil(extract(epoch FROM CASE
    WHEN f.${f.key} = $3 AND f.${f.failures} >= ${perAccount.attempts} THEN least(
      f.${f.lastAttemptAt} + ${backoffSeconds} * interval '1 second',
      f.${f.windowStartedAt} + ${perAccount.windowSeconds} * interval '1 second')
    WHEN f.${f.key} = $3 THEN now()
    WHEN f.${f.key} = $2 AND f.${f.failures} >= ${perClient.attempts}
      THEN f.${f.windowStartedAt} + ${perClient.windowSeconds} * interval '1 second'
    WHEN f.${f.key} = $1 AND f.${f.failures} >= ${perAccountAndClient.attempts}
      THEN f.${f.windowStartedAt} + ${perAccountAndClient.windowSeconds} * interval '1 second'
    ELSE now() END - now())))::int AS seconds
  FROM ${f.table} AS f WHERE f.${f.key} IN ($1, $2, $3)`;

/**
 * Sign-in attempts per key in a fixed window started by the key's first attempt, kept in the shared
 * database so every server instance enforces the same count.
 */
export function createSignInLimit(db: Database): SignInLimit {
  const statement = (text: string, params: string[]) => {
    // Parameters are bound as values; the statement text holds only constants and quoted names.
    const chunks = text.split(/\$(\d)/);
    return sql.join(chunks.map((chunk, index) => (index % 2 ? sql`${params[Number(chunk) - 1]}` : sql.raw(chunk))));
  };
  return {
    async attempt(account, clientIp) {
      const keys = keysOf(account, clientIp);
      const params = [keys.pair, keys.client, keys.account];
      const [counted] = await executeRows<{ allowed: boolean }>(db, statement(COUNT_ATTEMPT, params));
      if (counted?.allowed) return { allowed: true };
      const [wait] = await executeRows<{ seconds: number | null }>(db, statement(WAIT, params));
      return { allowed: false, retryAfterSeconds: Math.max(1, Number(wait?.seconds ?? 1)) };
    },
    async succeeded(account, clientIp) {
      const keys = keysOf(account, clientIp);
      await db.delete(signInFailures).where(eq(signInFailures.key, keys.pair));
      await db
        .update(signInFailures)
        .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)` })
        .where(or(eq(signInFailures.key, keys.client), eq(signInFailures.key, keys.account)));
    },
    async unlock(account) {
      await db
        .delete(signInFailures)
        .where(
          or(eq(signInFailures.key, `account:${account}`), like(signInFailures.key, `pair:${escapeLike(account)}|%`)),
        );
    },
    async prune() {
      // Every window has ended an hour after it started.
      await db
        .delete(signInFailures)
        .where(lt(signInFailures.windowStartedAt, sql`now() - ${perAccount.windowSeconds} * interval '1 second'`));
    },
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

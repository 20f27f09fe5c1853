import { gte, sql } from "drizzle-orm";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { log } from "../log.server.ts";
import { numberPoolExhaustions } from "./schema.server.ts";

const e = sqlNames(numberPoolExhaustions);

/** The log says so at most once a minute per instance; every visit is counted. */
const LOG_EVERY_MS = 60_000;
let loggedAt = 0;

const COUNT = `INSERT INTO ${e.table} (${e.hour}, ${e.visits}, ${e.lastAt}) VALUES (date_trunc('hour', now()), 1, now())
ON CONFLICT (${e.hour}) DO UPDATE SET ${e.visits} = ${e.table}.${e.visits} + 1, ${e.lastAt} = now()`;

const PRUNE = `DELETE FROM ${e.table} WHERE ${e.hour} < now() - interval '30 days'`;

/** A campaign visit found every number held: counted for the Calls page, and logged. */
export async function recordPoolExhausted(run: RunStatement, poolSize: number): Promise<void> {
  if (Date.now() - loggedAt >= LOG_EVERY_MS) {
    loggedAt = Date.now();
    log.warn(`every one of the ${poolSize} tracking numbers is held: campaign visits are shown the site's own number`);
  }
  await run("calls_pool_exhausted", COUNT, []);
}

/** Counts older than 30 days are deleted (housekeeping). */
export async function pruneExhaustionCounts(run: RunStatement): Promise<void> {
  await run("calls_pool_exhaustion_prune", PRUNE, []);
}

/** Campaign visits in the last 24 hours that found the pool used up, and the last time one did. */
export async function poolExhaustion(db: Database): Promise<{ visits: number; lastAt: Date | null }> {
  const [row] = await db
    .select({
      visits: sql<number>`coalesce(sum(${numberPoolExhaustions.visits}), 0)::int`,
      lastAt: sql<string | null>`max(${numberPoolExhaustions.lastAt})`,
    })
    .from(numberPoolExhaustions)
    .where(gte(numberPoolExhaustions.hour, sql`date_trunc('hour', now() - interval '24 hours')`));
  return { visits: row?.visits ?? 0, lastAt: row?.lastAt ? new Date(row.lastAt) : null };
}

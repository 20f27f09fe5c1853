import { lt } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { siteEventCounts } from "./schema.server.ts";

/** Daily counts of page views and calls are kept 25 months, so each month can be compared with the year before. */
const COUNT_RETENTION_MONTHS = 25;

/** Deletes the daily counts of page views and calls older than 25 months (docs/decisions/070); returns how many. */
export async function purgeExpiredCounts(db: Database, today = new Date()): Promise<number> {
  const cutoff = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - COUNT_RETENTION_MONTHS, today.getUTCDate()),
  );
  const deleted = await db
    .delete(siteEventCounts)
    .where(lt(siteEventCounts.day, cutoff.toISOString().slice(0, 10)))
    .returning({ day: siteEventCounts.day });
  return deleted.length;
}

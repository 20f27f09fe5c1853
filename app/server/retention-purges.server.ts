import { purgeExpiredCounts } from "./analytics/index.server.ts";
import { purgeExpiredCalls } from "./calls/index.server.ts";
import { purgeExpiredDownloads } from "./conversions/index.server.ts";
import type { OpenDatabase } from "./db/index.server.ts";
import { purgeExpiredLeads } from "./leads/index.server.ts";
import { purgeExpiredTexts } from "./texts/index.server.ts";

/**
 * Every purge of what is kept only for a time (personal data at most a year, the daily counts 25 months), each by
 * what it deletes, resolving to how many rows went: the server runs them at start and hourly, and a restore runs
 * them on what it restored, whose backup may hold rows that were deleted since it was made.
 */
export function retentionPurges(
  database: Pick<OpenDatabase, "db" | "run">,
  { outboxDir, pausing = false }: { outboxDir?: string; pausing?: boolean },
): [string, () => Promise<number>][] {
  return [
    [
      "leads and opt-out requests",
      async () => {
        const purged = await purgeExpiredLeads(database.db, { outboxDir, pausing });
        return purged.contacts + purged.optOuts;
      },
    ],
    ["daily counts", () => purgeExpiredCounts(database.db)],
    // Calls follow the leads' retention, Twilio configured or not (their recordings' deletions wait in the outbox).
    ["calls", () => purgeExpiredCalls(database.run)],
    // Texts follow the calls' and leads' retention.
    ["texts", () => purgeExpiredTexts(database.run)],
    // The ad platforms' conversion files hold the leads' click ids, and follow their retention too.
    ["conversion downloads", () => purgeExpiredDownloads(database.db)],
  ];
}

import { getTableName } from "drizzle-orm";
import type { RunStatement } from "../db/index.server.ts";
import { siteEventCounts, siteEventCountsVersion } from "./schema.server.ts";
import { localDate } from "~/lib/operator-time.ts";
import { log } from "../log.server.ts";
import type { SiteEvent } from "./site-event.server.ts";

/** Counts gathered in memory and added to the daily aggregates every few seconds (docs/decisions/070). */
export interface SiteEventCounter {
  /** Counts one event for today (the operator's day); false when the buffer already holds its maximum of distinct rows. */
  add(event: SiteEvent, now?: Date): boolean;
  /** Writes what has been gathered; the counter also does this on its own every `flushMs`. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

interface SiteEventCounterOptions {
  run: RunStatement;
  /** OPERATOR_TIME_ZONE: the counts are kept per day of the operator's calendar. */
  timeZone: string;
  flushMs: number;
  /** Distinct (day, page, kind, placement, source, medium, campaign) rows held between two writes. */
  maxBufferedRows?: number;
}

const t = siteEventCounts;
const keyColumns = [t.day, t.path, t.kind, t.placement, t.source, t.medium, t.campaign] as const;
const keyNames = keyColumns.map((column) => column.name).join(", ");

/**
 * Distinct (source, medium, campaign) values counted as themselves per day; the rest of a day's are counted
 * under OTHER_CAMPAIGN. A visitor may send any short text, and one address could otherwise add a row per
 * request, every day, for as long as counts are kept (docs/decisions/106-bounded-campaign-counts.md).
 */
export const CAMPAIGNS_PER_DAY = 200;
/** What source, medium and campaign read for the visits beyond a day's CAMPAIGNS_PER_DAY. */
export const OTHER_CAMPAIGN = "(other)";

const columnList = (prefix: string, columns: readonly { name: string }[]) =>
  columns.map((column) => `${prefix}${column.name}`).join(", ");
const campaignColumns = [t.day, t.source, t.medium, t.campaign] as const;
const sameCampaign = (left: string, right: string) =>
  campaignColumns.map((column) => `${left}.${column.name} = ${right}.${column.name}`).join(" AND ");

/**
 * ONE statement per write, whatever the number of rows: the rows arrive as a JSON array, and a row already
 * stored gets the new count added, so any number of server instances can write into the same table. The zone of the
 * days ($2) is stored beside the version, for its triggers to tell a day that is over; a change of zone raises it.
 * A campaign the day already holds is counted as itself; a new one only while the day holds fewer than
 * CAMPAIGNS_PER_DAY (in the order of their text, within one write), and otherwise under OTHER_CAMPAIGN.
 */
const ADD_COUNTS = `WITH zone AS (
  UPDATE ${getTableName(siteEventCountsVersion)} SET ${siteEventCountsVersion.timeZone.name} = $2,
    ${siteEventCountsVersion.version.name} = ${siteEventCountsVersion.version.name} + 1
  WHERE ${siteEventCountsVersion.timeZone.name} <> $2
), counted AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS counted(${[...keyColumns, t.count]
    .map((column) => `${column.name} ${column.getSQLType()}`)
    .join(", ")})
), campaigns AS (
  SELECT DISTINCT ${columnList("c.", campaignColumns)},
    EXISTS (SELECT 1 FROM ${getTableName(t)} s WHERE ${sameCampaign("s", "c")}) AS known
  FROM counted c
), room AS (
  SELECT ${t.day.name}, ${CAMPAIGNS_PER_DAY} - count(*) AS free FROM (
    SELECT DISTINCT ${columnList("", campaignColumns)} FROM ${getTableName(t)}
    WHERE ${t.day.name} IN (SELECT ${t.day.name} FROM campaigns)
  ) held GROUP BY ${t.day.name}
), admitted AS (
  SELECT ${columnList("", campaignColumns)} FROM campaigns WHERE known
  UNION ALL
  SELECT ${columnList("", campaignColumns)} FROM (
    SELECT c.*, row_number() OVER (PARTITION BY c.${t.day.name} ORDER BY ${columnList("c.", campaignColumns.slice(1))}) AS n
    FROM campaigns c WHERE NOT c.known
  ) fresh
  WHERE fresh.n <= coalesce((SELECT free FROM room WHERE room.${t.day.name} = fresh.${t.day.name}), ${CAMPAIGNS_PER_DAY})
)
INSERT INTO ${getTableName(t)} AS stored (${keyNames}, ${t.count.name})
SELECT ${columnList("c.", [t.day, t.path, t.kind, t.placement])},
  ${[t.source, t.medium, t.campaign]
    .map((column) => `CASE WHEN a.${t.day.name} IS NULL THEN '${OTHER_CAMPAIGN}' ELSE c.${column.name} END`)
    .join(", ")},
  sum(c.${t.count.name})
FROM counted c LEFT JOIN admitted a ON ${sameCampaign("a", "c")}
GROUP BY 1, 2, 3, 4, 5, 6, 7
ON CONFLICT (${keyNames}) DO UPDATE SET ${t.count.name} = stored.${t.count.name} + excluded.${t.count.name}`;

type Row = [
  day: string,
  path: string,
  kind: string,
  placement: string,
  source: string,
  medium: string,
  campaign: string,
];

export function createSiteEventCounter(options: SiteEventCounterOptions): SiteEventCounter {
  const maxRows = options.maxBufferedRows ?? 10_000;
  let buffer = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();

  const write = async () => {
    if (buffer.size === 0) return;
    const taken = buffer;
    buffer = new Map();
    const rows = [...taken].map(([key, count]) => {
      const values = JSON.parse(key) as Row;
      return { ...Object.fromEntries(keyColumns.map((column, index) => [column.name, values[index]])), count };
    });
    try {
      await options.run("add_site_event_counts", ADD_COUNTS, [JSON.stringify(rows), options.timeZone]);
    } catch (error) {
      // Kept for the next write, as far as the buffer allows: counts are worth less than memory.
      log.error(`site event counts could not be written: ${error instanceof Error ? error.message : String(error)}`);
      for (const [key, count] of taken) {
        if (buffer.has(key) || buffer.size < maxRows) buffer.set(key, (buffer.get(key) ?? 0) + count);
      }
    }
  };
  const flush = () => (writing = writing.then(write));
  const timer = setInterval(() => void flush(), options.flushMs);
  timer.unref();

  return {
    add(event, now = new Date()) {
      const row: Row = [
        localDate(now, options.timeZone),
        event.path,
        event.kind,
        event.placement,
        event.source,
        event.medium,
        event.campaign,
      ];
      const key = JSON.stringify(row);
      const current = buffer.get(key);
      if (current === undefined && buffer.size >= maxRows) return false;
      buffer.set(key, (current ?? 0) + 1);
      return true;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

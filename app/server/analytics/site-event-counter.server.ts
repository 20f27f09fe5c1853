import { getTableName } from "drizzle-orm";
import type { RunStatement } from "../db/index.server.ts";
import { siteEventCounts } from "./schema.server.ts";
import { log } from "../log.server.ts";
import type { SiteEvent } from "./site-event.server.ts";

/** Counts gathered in memory and added to the daily aggregates every few seconds (docs/decisions/070). */
export interface SiteEventCounter {
  /** Counts one event for today (UTC); false when the buffer already holds its maximum of distinct rows. */
  add(event: SiteEvent, now?: Date): boolean;
  /** Writes what has been gathered; the counter also does this on its own every `flushMs`. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

interface SiteEventCounterOptions {
  run: RunStatement;
  flushMs: number;
  /** Distinct (day, page, kind, placement, source, medium, campaign) rows held between two writes. */
  maxBufferedRows?: number;
}

const t = siteEventCounts;
const keyColumns = [t.day, t.path, t.kind, t.placement, t.source, t.medium, t.campaign] as const;
const keyNames = keyColumns.map((column) => column.name).join(", ");

/**
 * ONE statement per write, whatever the number of rows: the rows arrive as a JSON array, and a row already
 * stored gets the new count added, so any number of server instances can write into the same table.
 */
const ADD_COUNTS = `INSERT INTO ${getTableName(t)} AS stored (${keyNames}, ${t.count.name})
SELECT ${keyNames}, ${t.count.name} FROM jsonb_to_recordset($1::jsonb) AS counted(${[...keyColumns, t.count]
  .map((column) => `${column.name} ${column.getSQLType()}`)
  .join(", ")})
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
      await options.run("add_site_event_counts", ADD_COUNTS, [JSON.stringify(rows)]);
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
        now.toISOString().slice(0, 10),
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

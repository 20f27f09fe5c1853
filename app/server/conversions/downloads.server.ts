import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import { batchesAfter, executeRows, textRows, type Database } from "../db/index.server.ts";
import { CONTACT_RETENTION_DAYS, leadsForConversions } from "../leads/index.server.ts";
import { acceptedReferralsSince } from "../ledger/index.server.ts";
import type { AnsweredCalls } from "./answered-calls.server.ts";
import { conversionFile } from "./conversion-files.server.ts";
import { CLICK_WINDOW_DAYS, conversionRows, type AdPlatform, type ConversionRow } from "./conversion-rows.server.ts";
import { conversionDownloads, downloadedConversions } from "./schema.server.ts";
import { readConversionActions } from "./settings.server.ts";

/**
 * Conversion downloads: each holds the conversions no earlier download for its platform held, and is kept for a
 * year, contents and all, so it can be fetched again exactly as it was.
 */

const DAY_MS = 86_400_000;
/** Two operators downloading at once: the one whose conversions were taken first builds its file again. */
const ATTEMPTS = 3;
/** The downloads listed on the page, newest first. */
const LISTED_DOWNLOADS = 50;

export interface ConversionSources {
  /** OPERATOR_TIME_ZONE: the zone of the files' times. */
  timeZone: string;
  /** CONVERSION_CURRENCY. */
  currency: string;
  /** Call tracking's answered calls; undefined without call tracking. */
  answeredCalls: AnsweredCalls | undefined;
}

interface StoredDownload {
  id: string;
  platform: AdPlatform;
  createdAt: Date;
  rowCount: number;
  body: string;
}

/** A unique violation (23505), as PostgreSQL or PGlite report it, possibly wrapped by drizzle. */
function isDuplicate(error: unknown): boolean {
  for (let cause = error; cause instanceof Object; cause = (cause as { cause?: unknown }).cause) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (code === "23505" || (typeof message === "string" && /duplicate key/i.test(message))) return true;
  }
  return false;
}

/**
 * Builds and stores the next download for a platform: every conversion it can take that no earlier download
 * held. The file and the record of what it holds are written in one statement; a conversion another download
 * took meanwhile makes it fail, and it is built again without that one.
 */
export async function createDownload(
  db: Database,
  platform: AdPlatform,
  sources: ConversionSources,
  now = new Date(),
): Promise<StoredDownload> {
  const since = new Date(now.getTime() - CLICK_WINDOW_DAYS * DAY_MS);
  const [leads, calls, referrals, actions] = await Promise.all([
    leadsForConversions(db, since),
    sources.answeredCalls ? sources.answeredCalls.list(since, now) : [],
    acceptedReferralsSince(db, since),
    readConversionActions(db),
  ]);
  for (let attempt = 1; ; attempt++) {
    const candidates = conversionRows(platform, { leads, calls, referrals }, actions, now);
    const rows = await notYetDownloaded(db, platform, candidates, since);
    const download: StoredDownload = {
      id: randomUUID(),
      platform,
      createdAt: now,
      rowCount: rows.length,
      body: conversionFile[platform](rows, sources),
    };
    try {
      await storeDownload(
        db,
        download,
        rows.map((row) => row.key),
      );
      return download;
    } catch (error) {
      if (attempt >= ATTEMPTS || !isDuplicate(error)) throw error;
    }
  }
}

/** A download's keys read per statement: each statement short, so that lead intake goes on between them. */
const KEYS_PER_STATEMENT = 2_000;
/** Candidates made and weighed between two turns of the server's other work (some 100,000 on a busy site). */
const CANDIDATES_PER_TURN = 2_000;

/**
 * The keys held by the platform's downloads that can hold a conversion of the window. A conversion's lead or call
 * arrived at most 90 days ago, so no download made before then holds it (a day more, for the clocks of several
 * instances). Each download's keys are read in order, each statement after the last key of the one before.
 */
async function keysDownloadedSince(db: Database, platform: AdPlatform, since: Date): Promise<Set<string>> {
  const d = conversionDownloads;
  const k = downloadedConversions;
  const downloads = await db
    .select({ id: d.id })
    .from(d)
    .where(and(eq(d.platform, platform), gte(d.createdAt, new Date(since.getTime() - DAY_MS))));
  const keys = new Set<string>();
  for (const download of downloads) {
    const readBatch = async (after?: string) => {
      const [batch] = await executeRows<{ keys: string | null }>(
        db,
        sql`SELECT string_agg(conversion, E'\n' ORDER BY conversion) AS keys FROM (
          SELECT ${k.conversion} AS conversion FROM ${k} WHERE ${k.downloadId} = ${download.id}::uuid
            ${after === undefined ? sql`` : sql`AND ${k.conversion} > ${after}`}
          ORDER BY ${k.conversion} LIMIT ${KEYS_PER_STATEMENT}) AS batch`,
      );
      return batch?.keys ? batch.keys.split("\n") : [];
    };
    for await (const batch of batchesAfter(readBatch, KEYS_PER_STATEMENT, (last) => last)) {
      for (const key of batch) keys.add(key);
    }
  }
  return keys;
}

/**
 * The candidates no earlier download for the platform held: on a busy site nearly all of some 100,000 candidates in
 * 90 days were downloaded before. The keys the downloads of the window hold are read once and the candidates weighed
 * against them as they are made: looked up in the database a few hundred a statement, they took three times as long.
 */
async function notYetDownloaded(
  db: Database,
  platform: AdPlatform,
  candidates: Iterable<ConversionRow>,
  since: Date,
): Promise<ConversionRow[]> {
  const downloaded = await keysDownloadedSince(db, platform, since);
  const fresh: ConversionRow[] = [];
  let weighed = 0;
  for (const candidate of candidates) {
    if (!downloaded.has(candidate.key)) fresh.push(candidate);
    if (++weighed % CANDIDATES_PER_TURN === 0) await setImmediate();
  }
  return fresh;
}

async function storeDownload(db: Database, download: StoredDownload, keys: string[]): Promise<void> {
  const d = conversionDownloads;
  const k = downloadedConversions;
  const column = (name: { name: string }) => sql.identifier(name.name);
  await executeRows(
    db,
    sql`WITH download AS (
      INSERT INTO ${d} (${column(d.id)}, ${column(d.platform)}, ${column(d.createdAt)}, ${column(d.rowCount)}, ${column(d.body)})
      VALUES (${download.id}::uuid, ${download.platform}::text, ${download.createdAt.toISOString()}::timestamptz,
        ${download.rowCount}::int, ${download.body}::text)
      RETURNING ${column(d.id)} AS id
    )
    INSERT INTO ${k} (${column(k.platform)}, ${column(k.conversion)}, ${column(k.downloadId)})
    SELECT ${download.platform}::text, conversion, download.id
    FROM download, ${textRows(keys)} AS conversion`,
  );
}

/** The downloads, newest first, without their contents. */
export function listDownloads(db: Database) {
  const d = conversionDownloads;
  return db
    .select({ id: d.id, platform: d.platform, createdAt: d.createdAt, rowCount: d.rowCount })
    .from(d)
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(LISTED_DOWNLOADS);
}

/** One download with its contents, as it was first downloaded; null when there is none with that id. */
export async function findDownload(db: Database, id: string): Promise<StoredDownload | null> {
  const [row] = await db.select().from(conversionDownloads).where(eq(conversionDownloads.id, id));
  return row ? { ...row, platform: row.platform === "microsoft" ? "microsoft" : "google" } : null;
}

/**
 * Deletes the downloads made longer ago than the leads' retention period (a download's click ids are lead data),
 * oldest first, with the record of the conversions each held, KEYS_PER_STATEMENT of them a statement so that lead
 * intake goes on between them (a busy site's download holds tens of thousands). A download holds only conversions
 * of leads, calls and referrals that came before it, so no later download can take them again: the next one reads
 * only the last 90 days. Returns how many downloads went.
 */
export async function purgeExpiredDownloads(db: Database, retentionDays = CONTACT_RETENTION_DAYS): Promise<number> {
  const d = conversionDownloads;
  const k = downloadedConversions;
  const expired = await db
    .select({ id: d.id })
    .from(d)
    .where(lt(d.createdAt, sql`now() - ${retentionDays} * interval '1 day'`))
    .orderBy(asc(d.createdAt));
  let purged = 0;
  for (const { id } of expired) {
    for (;;) {
      const deleted = await executeRows(
        db,
        sql`DELETE FROM ${k} WHERE (${k.platform}, ${k.conversion}) IN (
          SELECT ${k.platform}, ${k.conversion} FROM ${k} WHERE ${k.downloadId} = ${id}::uuid LIMIT ${KEYS_PER_STATEMENT})
        RETURNING 1`,
      );
      if (deleted.length < KEYS_PER_STATEMENT) break;
    }
    // Another instance purging at once may have deleted it first.
    purged += (await db.delete(d).where(eq(d.id, id)).returning({ id: d.id })).length;
  }
  return purged;
}

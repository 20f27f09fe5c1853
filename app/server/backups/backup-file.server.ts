import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip, gunzipSync, gzipSync } from "node:zlib";
import { createInterface } from "node:readline";
import type { DatabaseFacts } from "./database-facts.server.ts";

/**
 * A backup file: gzip of a JSON header line (the database's kind, its tables in foreign-key order, its migrations),
 * the rows as JSON lines (`[table index, row]`) table by table in that order, and a last JSON line with each table's
 * row count and each sequence's position. Beside it, `<file>.sha256` in `sha256sum`'s format. Both are readable by
 * their owner only, in a folder only the owner can enter; a file is written under a temporary name and renamed once
 * complete. (Files of version 1 had the counts in the header, and an embedded database's data folder as a tar file.)
 */

export interface BackupHeader extends DatabaseFacts {
  format: "plumbline-backup";
  version: 1 | 2;
  database: "pglite" | "postgresql";
  createdAt: string;
}

/** What the file's first line holds; the counts and sequences come last, once every row is read. */
export type BackupStart = Omit<BackupHeader, "counts" | "sequences" | "version">;

export function backupFileName(at: Date, database: BackupHeader["database"]): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `plumbline-${stamp}.${database === "pglite" ? "pglite" : "pg"}.gz`;
}

const newlines = (text: string) => {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count += 1;
  return count;
};

/**
 * Writes a backup of `start.tables` to `dir/name` and its checksum beside it. The tables are read last first (a
 * table before the tables it references), each into a gzip part of its own, so that every row read refers to rows
 * that still existed when it was read; the parts are then joined in foreign-key order, which gzip allows, between
 * the header and the counts. `sequences` is read once every row is.
 */
export async function writeBackupFile(
  dir: string,
  name: string,
  start: BackupStart,
  readTable: (table: string, index: number) => AsyncIterable<string>,
  sequences: () => Promise<BackupHeader["sequences"]>,
): Promise<{ path: string; sizeBytes: number; header: BackupHeader }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const path = join(dir, name);
  const partial = `${path}.partial`;
  const part = (index: number) => `${partial}.${index}`;
  const counts: Record<string, number> = {};
  try {
    for (let index = start.tables.length - 1; index >= 0; index -= 1) {
      const table = start.tables[index]!;
      let rows = 0;
      async function* counted() {
        for await (const chunk of readTable(table, index)) {
          rows += newlines(chunk);
          yield chunk;
        }
      }
      await pipeline(
        Readable.from(counted()),
        createGzip({ level: 6 }),
        createWriteStream(part(index), { mode: 0o600 }),
      );
      counts[table] = rows;
    }
    const inOrder = Object.fromEntries(start.tables.map((table) => [table, counts[table]!]));
    const header: BackupHeader = { ...start, version: 2, counts: inOrder, sequences: await sequences() };
    const hash = createHash("sha256");
    async function* whole() {
      yield gzipSync(`${JSON.stringify({ ...start, version: header.version })}\n`);
      for (let index = 0; index < start.tables.length; index += 1) yield* createReadStream(part(index));
      yield gzipSync(`${JSON.stringify({ counts: header.counts, sequences: header.sequences })}\n`);
    }
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(Readable.from(whole()), tap, createWriteStream(partial, { mode: 0o600 }));
    await writeFile(`${path}.sha256`, `${hash.digest("hex")}  ${name}\n`, { mode: 0o600 });
    await rename(partial, path);
    return { path, sizeBytes: (await stat(path)).size, header };
  } finally {
    await rm(partial, { force: true });
    await Promise.all(start.tables.map((_, index) => rm(part(index), { force: true })));
  }
}

export class DamagedBackup extends Error {}

/** Checks the file against its checksum; a missing, truncated or altered file is refused before anything is read. */
async function checkChecksum(path: string): Promise<void> {
  const expected = (await readFile(`${path}.sha256`, "utf8").catch(() => "")).split(/\s/)[0];
  if (!expected) throw new DamagedBackup(`${path}.sha256 is missing: the backup cannot be checked.`);
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  if (hash.digest("hex") !== expected) {
    throw new DamagedBackup(`${basename(path)} is damaged or incomplete: it does not match its checksum.`);
  }
}

/** How much of a file's end is searched for its last gzip member: the counts and sequences, a few kilobytes. */
const TAIL_BYTES = 256 * 1024;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);

/** The one line that `bytes` unzip to, without its newline; undefined when they are not gzip of one line. */
function oneLineUnzipped(bytes: Buffer): string | undefined {
  let text;
  try {
    text = gunzipSync(bytes).toString("utf8");
  } catch {
    return undefined;
  }
  return text.indexOf("\n") === text.length - 1 ? text.slice(0, -1) : undefined;
}

/**
 * The last line of the file: a version 2 backup's counts and sequences, written as a gzip member of their own.
 * Only the file's end is read: the member is found there by trying, from the end back, each place gzip's magic
 * bytes start until one unzips to that one line (unzipping the whole file took 15 s on a busy year's backup).
 */
async function lastLine(path: string): Promise<string> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const length = Math.min(size, TAIL_BYTES);
    const tail = Buffer.alloc(length);
    await file.read(tail, 0, length, size - length);
    let at = tail.lastIndexOf(GZIP_MAGIC);
    while (at !== -1) {
      const line = oneLineUnzipped(tail.subarray(at));
      if (line !== undefined) return line;
      at = at === 0 ? -1 : tail.lastIndexOf(GZIP_MAGIC, at - 1);
    }
    throw new DamagedBackup(`${basename(path)} has no counts at its end.`);
  } finally {
    await file.close();
  }
}

/**
 * The file is unzipped in chunks of 256 KB, up to 16 MB ahead of the reader: zlib works on another thread while
 * the restore's database takes the rows on this one (in chunks of 16 KB, read only as asked for, a busy year's file
 * took 12 s to read and the restore waited on it between statements).
 */
const UNZIP_AHEAD = { chunkSize: 256 * 1024, highWaterMark: 16 * 1024 * 1024 };

/** A checked backup file's header, and its data as lines of rows or (version 1, embedded) the tar file's bytes. */
export async function readBackupFile(path: string): Promise<{
  path: string;
  header: BackupHeader;
  /** Whether the data is a data folder's tar file (an embedded database's backup of version 1). */
  isDataFolder: boolean;
  /** The whole file unzipped, its header and counts with the rows' lines, in chunks. */
  text(): AsyncIterable<Buffer>;
  bytes(): Promise<Buffer>;
}> {
  await checkChecksum(path);
  const gunzipped = () => createReadStream(path).pipe(createGunzip(UNZIP_AHEAD));
  let header: BackupHeader | undefined;
  try {
    for await (const line of createInterface({ input: gunzipped(), crlfDelay: Infinity })) {
      header = JSON.parse(line) as BackupHeader;
      break;
    }
    if (header?.version === 2) header = { ...header, ...(JSON.parse(await lastLine(path)) as DatabaseFacts) };
  } catch {
    throw new DamagedBackup(`${basename(path)} is not a readable backup.`);
  }
  if (header?.format !== "plumbline-backup" || (header.version !== 1 && header.version !== 2)) {
    throw new DamagedBackup(`${basename(path)} is not a Plumbline backup.`);
  }
  return {
    path,
    header,
    isDataFolder: header.version === 1 && header.database === "pglite",
    text: gunzipped,
    async bytes() {
      const chunks: Buffer[] = [];
      for await (const chunk of gunzipped()) chunks.push(chunk as Buffer);
      const all = Buffer.concat(chunks);
      return all.subarray(all.indexOf(0x0a) + 1);
    },
  };
}

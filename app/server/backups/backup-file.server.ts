import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip, gunzipSync, gzipSync } from "node:zlib";
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
  /** How many bytes the rows' lines unzip to (stated in the last line since version 2 files had it). */
  rowBytes?: number;
}

/** What the file's first line holds; the counts and sequences come last, once every row is read. */
export type BackupStart = Omit<BackupHeader, "counts" | "sequences" | "version" | "rowBytes">;

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
  let rowBytes = 0;
  try {
    for (let index = start.tables.length - 1; index >= 0; index -= 1) {
      const table = start.tables[index]!;
      let rows = 0;
      async function* counted() {
        for await (const chunk of readTable(table, index)) {
          rows += newlines(chunk);
          rowBytes += Buffer.byteLength(chunk);
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
    const header: BackupHeader = { ...start, version: 2, counts: inOrder, sequences: await sequences(), rowBytes };
    const hash = createHash("sha256");
    async function* whole() {
      yield gzipSync(`${JSON.stringify({ ...start, version: header.version })}\n`);
      for (let index = 0; index < start.tables.length; index += 1) yield* createReadStream(part(index));
      yield gzipSync(`${JSON.stringify({ counts: header.counts, sequences: header.sequences, rowBytes })}\n`);
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

/**
 * The longest lines a backup of this site holds: its header and its counts (tables' names and numbers), and a row
 * (a lead's message is at most 32 KB, an email's body some more). A file is read a line at a time, so a longer
 * line (a file made to unzip to gigabytes, say) is refused when it reaches the limit, not held in memory.
 */
const MAX_HEADER_BYTES = 1024 * 1024;
const MAX_ROW_BYTES = 16 * 1024 * 1024;
/** A version 1 embedded backup's data folder is laid down from memory: a database this large belongs on PostgreSQL. */
const MAX_DATA_FOLDER_BYTES = 1024 * 1024 * 1024;

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The one line that `bytes` unzip to, without its newline; undefined when they are not gzip of one short line. */
function oneLineUnzipped(bytes: Buffer): string | undefined {
  let text;
  try {
    text = gunzipSync(bytes, { maxOutputLength: MAX_HEADER_BYTES }).toString("utf8");
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
      if (line?.startsWith('{"counts":')) return line;
      at = at === 0 ? -1 : tail.lastIndexOf(GZIP_MAGIC, at - 1);
    }
    throw new DamagedBackup(`${basename(path)} is incomplete: it has no counts at its end.`);
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

interface UnzipLimits {
  /** The longest line allowed. */
  line: number;
  /** How many lines the file may hold. */
  lines: number;
  /** How many bytes it may unzip to. */
  bytes: number;
}

const NEWLINE = 0x0a;

/**
 * The file unzipped, in chunks, ended with a DamagedBackup as soon as it goes past a limit, or when its compressed
 * data ends early or is not gzip (a truncated file whose checksum was made again, say). Nothing else reads it, so
 * nothing is left open when the reader stops early.
 */
async function* unzipped(path: string, limits: UnzipLimits): AsyncIterable<Buffer> {
  const name = basename(path);
  const source = createReadStream(path);
  const gunzip = createGunzip(UNZIP_AHEAD);
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  let bytes = 0;
  let lines = 0;
  let lineBytes = 0;
  const tooLong = () =>
    new DamagedBackup(`${name} has a line longer than ${megabytes(limits.line)}: it is not a backup this site made.`);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limits.bytes) {
        throw new DamagedBackup(`${name} unzips to more than the ${limits.bytes} bytes it says it holds.`);
      }
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        if (lineBytes + end - start > limits.line) throw tooLong();
        lines += 1;
        lineBytes = 0;
        start = end + 1;
      }
      if (lines > limits.lines) throw new DamagedBackup(`${name} has more lines than its counts say.`);
      lineBytes += chunk.length - start;
      if (lineBytes > limits.line) throw tooLong();
      yield chunk;
    }
  } catch (error) {
    if (error instanceof DamagedBackup) throw error;
    const { code } = error as NodeJS.ErrnoException;
    throw new DamagedBackup(
      code === "Z_BUF_ERROR"
        ? `${name} is incomplete: its data ends before its end.`
        : `${name} is incomplete or damaged: ${(error as Error).message}.`,
    );
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/** The file's first line, read no further than its limit. */
async function firstLine(path: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of unzipped(path, { line: MAX_HEADER_BYTES, lines: Infinity, bytes: Infinity })) {
    const end = chunk.indexOf(NEWLINE);
    chunks.push(end === -1 ? chunk : chunk.subarray(0, end));
    if (end !== -1) return Buffer.concat(chunks).toString("utf8");
  }
  throw new DamagedBackup(`${basename(path)} is incomplete: it holds no whole line.`);
}

/** Whether the header holds what a restore reads: tables, each one's count, sequences and migrations. */
function isComplete(header: BackupHeader): boolean {
  return (
    Array.isArray(header.tables) &&
    header.tables.every((table) => typeof header.counts?.[table] === "number") &&
    typeof header.sequences === "object" &&
    header.sequences !== null &&
    Number.isInteger(header.migrations) &&
    (header.rowBytes === undefined || Number.isInteger(header.rowBytes))
  );
}

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
  const name = basename(path);
  const first = await firstLine(path);
  const parsed = (line: string) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new DamagedBackup(`${name} is not a readable backup.`);
    }
  };
  let header = parsed(first) as BackupHeader;
  const last = header?.version === 2 ? await lastLine(path) : undefined;
  if (last) header = { ...header, ...(parsed(last) as DatabaseFacts) };
  if (header?.format !== "plumbline-backup" || (header.version !== 1 && header.version !== 2)) {
    throw new DamagedBackup(`${name} is not a Plumbline backup.`);
  }
  if (!isComplete(header)) throw new DamagedBackup(`${name} is incomplete: its header or counts lack a part.`);
  const isDataFolder = header.version === 1 && header.database === "pglite";
  const rows = Object.values(header.counts).reduce((sum, count) => sum + count, 0);
  // The header, each row, and the counts: each a line of its stated length.
  const limits = {
    line: MAX_ROW_BYTES,
    lines: rows + 2,
    bytes:
      header.rowBytes === undefined
        ? Infinity
        : Buffer.byteLength(first) + header.rowBytes + Buffer.byteLength(last ?? "") + 2,
  };
  return {
    path,
    header,
    isDataFolder,
    text: () => unzipped(path, limits),
    async bytes() {
      const chunks: Buffer[] = [];
      const all = { line: Infinity, lines: Infinity, bytes: MAX_DATA_FOLDER_BYTES };
      for await (const chunk of unzipped(path, all)) chunks.push(chunk);
      const whole = Buffer.concat(chunks);
      return whole.subarray(whole.indexOf(NEWLINE) + 1);
    },
  };
}

import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { createInterface } from "node:readline";
import type { DatabaseFacts } from "../db/index.server.ts";

/**
 * A backup file: gzip of one JSON header line (what the database held: tables, row counts, sequences, migrations)
 * followed by the data: the embedded database's data folder as a tar file, or PostgreSQL's rows as JSON lines
 * (`[table index, row]`). Beside it, `<file>.sha256` in `sha256sum`'s format. Both are readable by their owner only,
 * in a folder only the owner can enter; a file is written under a temporary name and renamed once complete.
 */

export interface BackupHeader extends DatabaseFacts {
  format: "plumbline-backup";
  version: 1;
  /** `pglite`: the data is a tar file of the data folder. `postgresql`: JSON lines of rows. */
  database: "pglite" | "postgresql";
  createdAt: string;
}

export function backupFileName(at: Date, database: BackupHeader["database"]): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `plumbline-${stamp}.${database === "pglite" ? "pglite" : "pg"}.gz`;
}

/** Writes the header and the data to `dir/name` and its checksum beside it; returns the file's path and size. */
export async function writeBackupFile(
  dir: string,
  name: string,
  header: BackupHeader,
  data: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<{ path: string; sizeBytes: number }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const path = join(dir, name);
  const partial = `${path}.partial`;
  const hash = createHash("sha256");
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  async function* content() {
    yield `${JSON.stringify(header)}\n`;
    yield* data;
  }
  try {
    await pipeline(
      Readable.from(content()),
      createGzip({ level: 6 }),
      tap,
      createWriteStream(partial, { mode: 0o600 }),
    );
    await writeFile(`${path}.sha256`, `${hash.digest("hex")}  ${name}\n`, { mode: 0o600 });
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path, sizeBytes: (await stat(path)).size };
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

/** A checked backup file's header, and its data as lines (PostgreSQL's rows) or bytes (the embedded tar file). */
export async function readBackupFile(path: string): Promise<{
  path: string;
  header: BackupHeader;
  lines(): AsyncIterable<string>;
  bytes(): Promise<Buffer>;
}> {
  await checkChecksum(path);
  const gunzipped = () => createReadStream(path).pipe(createGunzip());
  const lineReader = () => createInterface({ input: gunzipped(), crlfDelay: Infinity });
  let header: BackupHeader | undefined;
  try {
    for await (const line of lineReader()) {
      header = JSON.parse(line) as BackupHeader;
      break;
    }
  } catch {
    throw new DamagedBackup(`${basename(path)} is not a readable backup.`);
  }
  if (header?.format !== "plumbline-backup" || header.version !== 1) {
    throw new DamagedBackup(`${basename(path)} is not a Plumbline backup.`);
  }
  return {
    path,
    header,
    async *lines() {
      let first = true;
      for await (const line of lineReader()) {
        if (first) first = false;
        else if (line !== "") yield line;
      }
    },
    async bytes() {
      const chunks: Buffer[] = [];
      for await (const chunk of gunzipped()) chunks.push(chunk as Buffer);
      const all = Buffer.concat(chunks);
      return all.subarray(all.indexOf(0x0a) + 1);
    },
  };
}

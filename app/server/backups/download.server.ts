import { open } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Database } from "../db/index.server.ts";
import { findBackup, recordDownload } from "./records.server.ts";

/** A backup's file name as the site makes them, or that name with `.sha256`: nothing else is ever opened. */
const BACKUP_NAME = /^(plumbline-\d{8}T\d{6}Z\.(?:pglite|pg)\.gz)(\.sha256)?$/;

type BackupDownload =
  | {
      kind: "file";
      name: string;
      contentType: string;
      sizeBytes: number;
      /** The file as it is read; once read to its end, a backup (not its checksum) is recorded as downloaded. */
      body: ReadableStream<Uint8Array>;
    }
  /** No backup of that name: never made, or deleted by retention. */
  | { kind: "unknown" }
  /** Made, but its file is not in this instance's BACKUP_DIR (another instance made it, or it was removed). */
  | { kind: "elsewhere" };

/**
 * A backup, or its checksum, for the operator to keep off the machine. A backup sent to its last byte is recorded as
 * downloaded; a download cut short is not.
 */
export async function openBackupDownload(db: Database, dir: string, name: string): Promise<BackupDownload> {
  const match = BACKUP_NAME.exec(name);
  if (!match) return { kind: "unknown" };
  const [, file, checksum] = match as unknown as [string, string, string | undefined];
  if (!(await findBackup(db, file))) return { kind: "unknown" };
  const handle = await open(join(dir, basename(name)), "r").catch(() => null);
  if (!handle) return { kind: "elsewhere" };
  const { size } = await handle.stat();
  const chunks = handle.createReadStream()[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (!next.done) return controller.enqueue(new Uint8Array(next.value));
      if (!checksum) await recordDownload(db, file);
      controller.close();
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return {
    kind: "file",
    name,
    contentType: checksum ? "text/plain; charset=utf-8" : "application/gzip",
    sizeBytes: size,
    body,
  };
}

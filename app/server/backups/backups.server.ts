import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { getPriority, setPriority } from "node:os";
import { basename, join, resolve as resolvePath } from "node:path";
import type { Env } from "~/config/env.server.ts";
import { wallClock, zonedInstant } from "~/lib/operator-time.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { messageIdDomain } from "../outbox/index.server.ts";
import { projectPath } from "../project-path.server.ts";
import { makeBackup } from "./backup.server.ts";
import { openBackupDownload } from "./download.server.ts";
import {
  claimBackupDay,
  forgetBackups,
  listBackups,
  recordBackup,
  recordVerification,
  warnWithoutVerifiedBackup,
} from "./records.server.ts";
import { backupsToKeep } from "./retention.server.ts";

export interface BackupSettings {
  dir: string;
  /** HH:MM in the operator's zone; null: no daily backup. */
  dailyAt: string | null;
  timeZone: string;
  leadsEmailTo: string;
  companyName: string;
  siteUrl: string;
  messageIdDomain: string;
}

/** Where backups go, when the daily one is made, and whom a missing one is reported to. */
export function backupSettings(env: Env): BackupSettings {
  return {
    dir: env.BACKUP_DIR,
    dailyAt: env.BACKUP_SCHEDULE === "on" ? env.BACKUP_TIME : null,
    timeZone: env.OPERATOR_TIME_ZONE,
    leadsEmailTo: env.LEADS_EMAIL_TO,
    companyName: env.COMPANY_NAME,
    siteUrl: env.SITE_URL,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
  };
}

/** Verifies a backup file; resolves to null when it restored with every count, else to what was wrong. */
export type VerifyBackup = (path: string) => Promise<string | null>;

/**
 * How much lower than the server's the verification's CPU priority is (a niceness added, as `nice` adds 10): on a
 * machine with few cores the server's requests come first, and the verification takes the CPU they leave.
 */
const VERIFICATION_NICENESS = 10;

/**
 * Verification in a process of its own (`npm run restore -- --verify FILE`): restoring into a scratch database
 * takes minutes of CPU and memory the server's requests should not wait behind. The command runs in the project's
 * folder, so it gets the file's whole path: BACKUP_DIR may be relative to wherever the server was started.
 */
const verifyInChildProcess: VerifyBackup = (path) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), projectPath("scripts/restore.ts"), "--verify", resolvePath(path)],
      { cwd: projectPath(), stdio: ["ignore", "ignore", "pipe"] },
    );
    // Set as the process starts, so the threads it starts (the embedded database's among them) inherit it.
    try {
      if (child.pid) setPriority(child.pid, Math.min(19, getPriority(child.pid) + VERIFICATION_NICENESS));
    } catch {
      // Where the system refuses, the verification runs at the server's priority.
    }
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) =>
      resolve(code === 0 ? null : errors.trim() || `Verification stopped (exit code ${code}).`),
    );
  });

const CHECK_EVERY_MS = 60_000;

/**
 * Backups of the whole database: made on demand (`npm run backup`) and daily at the set time (once across
 * instances), each verified, recorded for the console, and pruned to 7 daily, 4 weekly and 3 monthly.
 */
export function createBackups(options: {
  db: Database;
  run: RunStatement;
  /** The PostgreSQL server, when the site uses one; else the embedded database behind `db` and `run`. */
  databaseUrl?: string;
  settings: BackupSettings;
  verify?: VerifyBackup;
}) {
  const { db, run, databaseUrl, settings, verify = verifyInChildProcess } = options;

  async function prune(now: Date): Promise<void> {
    const all = await listBackups(db);
    const keep = backupsToKeep(all, settings.timeZone, now);
    const drop = all.filter((backup) => !keep.has(backup));
    for (const backup of drop) {
      const path = join(settings.dir, basename(backup.file));
      await rm(path, { force: true });
      await rm(`${path}.sha256`, { force: true });
    }
    await forgetBackups(
      db,
      drop.map((backup) => backup.id),
    );
  }

  async function backUpNow(now = new Date()) {
    const made = await makeBackup({ databaseUrl, db, run }, settings.dir, now);
    const id = await recordBackup(db, {
      file: basename(made.path),
      createdAt: now,
      sizeBytes: made.sizeBytes,
      counts: made.header.counts,
    });
    const problem = await verify(made.path);
    await recordVerification(db, id, problem);
    await prune(now);
    return { ...made, problem };
  }

  /** The day's backup once its time has come, by whichever instance claims the day first; and the 26-hour warning. */
  async function tick(now = new Date()): Promise<void> {
    if (!settings.dailyAt) return;
    await warnWithoutVerifiedBackup(run, settings);
    const { year, month, day } = wallClock(now, settings.timeZone);
    const date = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    const [hour, minute] = settings.dailyAt.split(":").map(Number) as [number, number];
    const dueAt = zonedInstant(date, hour, settings.timeZone).getTime() + minute * 60_000;
    if (now.getTime() >= dueAt && (await claimBackupDay(db, date))) await backUpNow(now);
  }

  return {
    backUpNow,
    tick,
    /** A backup (or its `.sha256`) from this instance's BACKUP_DIR, for the console's download. */
    download: (name: string) => openBackupDownload(db, settings.dir, name),
    /** Looks every minute, from a minute after start. */
    start(onError: (error: unknown) => void) {
      let running: Promise<void> = Promise.resolve();
      const timer = setInterval(() => {
        running = running.then(() => tick()).catch(onError);
      }, CHECK_EVERY_MS);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
}

export type Backups = ReturnType<typeof createBackups>;

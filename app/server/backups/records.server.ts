import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { emailRow, queueEmailsCte } from "../outbox/index.server.ts";
import { backupDays, backups, backupWatch } from "./schema.server.ts";

/** What the site remembers of its backups: each one with its verification, the days taken on, and the warning sent. */

export async function claimBackupDay(db: Database, day: string): Promise<boolean> {
  const claimed = await db.insert(backupDays).values({ day }).onConflictDoNothing().returning();
  return claimed.length > 0;
}

export async function recordBackup(
  db: Database,
  made: { file: string; createdAt: Date; sizeBytes: number; counts: Record<string, number> },
): Promise<string> {
  const [row] = await db.insert(backups).values(made).returning({ id: backups.id });
  return row!.id;
}

export async function recordVerification(db: Database, id: string, error: string | null): Promise<void> {
  await db
    .update(backups)
    .set(error === null ? { verifiedAt: new Date(), verifyError: null } : { verifyError: error })
    .where(eq(backups.id, id));
}

export interface BackupSummary {
  file: string;
  createdAt: Date;
  sizeBytes: number;
  verifiedAt: Date | null;
  verifyError: string | null;
  downloadedAt: Date | null;
}

/** The newest backup, for the console. */
export async function lastBackup(db: Database): Promise<BackupSummary | null> {
  const [row] = await db
    .select({
      file: backups.file,
      createdAt: backups.createdAt,
      sizeBytes: backups.sizeBytes,
      verifiedAt: backups.verifiedAt,
      verifyError: backups.verifyError,
      downloadedAt: backups.downloadedAt,
    })
    .from(backups)
    .orderBy(desc(backups.createdAt))
    .limit(1);
  return row ?? null;
}

/** The backup of that file name, when this site made it and retention has kept it. */
export async function findBackup(db: Database, file: string): Promise<{ file: string } | null> {
  const [row] = await db.select({ file: backups.file }).from(backups).where(eq(backups.file, file));
  return row ?? null;
}

/** The backup's file was sent whole to an operator's browser now. */
export async function recordDownload(db: Database, file: string): Promise<void> {
  await db.update(backups).set({ downloadedAt: new Date() }).where(eq(backups.file, file));
}

/**
 * A backup downloaded from the console stands as the copy off the machine for a week: a lost machine then costs at
 * most a week of leads, calls and ledger entries.
 */
const COPY_OFF_MACHINE_DAYS = 7;

/**
 * The newest copy off the machine: when a verified backup was last downloaded whole from the console (a backup that
 * did not verify is no copy to restore from), and whether that was within the week.
 */
export async function copyOffMachine(
  db: Database,
  now = new Date(),
): Promise<{ downloadedAt: Date; current: boolean } | null> {
  const [row] = await db
    .select({ downloadedAt: backups.downloadedAt })
    .from(backups)
    .where(and(isNotNull(backups.downloadedAt), isNotNull(backups.verifiedAt)))
    .orderBy(desc(backups.downloadedAt))
    .limit(1);
  if (!row?.downloadedAt) return null;
  const current = now.getTime() - row.downloadedAt.getTime() < COPY_OFF_MACHINE_DAYS * 24 * 60 * 60 * 1000;
  return { downloadedAt: row.downloadedAt, current };
}

export function listBackups(db: Database) {
  return db.select({ id: backups.id, file: backups.file, createdAt: backups.createdAt }).from(backups);
}

export async function forgetBackups(db: Database, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(backups).where(inArray(backups.id, ids));
}

const b = sqlNames(backups);
const w = sqlNames(backupWatch);

/** Without a verified backup for this long, the operator is emailed. */
const UNVERIFIED_HOURS = 26;

/**
 * One email to LEADS_EMAIL_TO when no backup has been verified for 26 hours (counted from the newest verified one,
 * or from when the site started watching): once for each such gap, whichever instance looks first.
 */
const WARN = `WITH inserted AS (
  INSERT INTO ${w.table} (${w.id}) VALUES (1) ON CONFLICT (${w.id}) DO NOTHING RETURNING *
),
watch AS (SELECT * FROM inserted UNION ALL SELECT * FROM ${w.table} WHERE ${w.id} = 1),
newest AS (SELECT ${b.id}::text AS id, ${b.verifiedAt} AS at FROM ${b.table} WHERE ${b.verifiedAt} IS NOT NULL
  ORDER BY ${b.verifiedAt} DESC LIMIT 1),
verified AS (SELECT (SELECT at FROM newest) AS at, coalesce((SELECT id FROM newest), 'none') AS id),
due AS (
  UPDATE ${w.table} SET ${w.warnedAfter} = verified.id
  FROM watch, verified
  WHERE ${w.table}.${w.id} = 1
    AND coalesce(verified.at, watch.${w.watchingSince}) < now() - interval '${UNVERIFIED_HOURS} hours'
    AND watch.${w.warnedAfter} IS DISTINCT FROM verified.id
  RETURNING 1
),
${queueEmailsCte({ rows: "$1", where: "EXISTS (SELECT 1 FROM due)" })}
SELECT (SELECT count(*) FROM due)::int AS warned`;

/**
 * One email to LEADS_EMAIL_TO when no backup has been verified for 26 hours (counted from the newest verified one,
 * or from when the site started watching): once for each such gap, whichever instance looks first.
 */
export async function warnWithoutVerifiedBackup(
  run: RunStatement,
  settings: { leadsEmailTo: string; companyName: string; siteUrl: string; messageIdDomain: string },
): Promise<boolean> {
  const email = emailRow(
    {
      purpose: "backup_warning",
      to: settings.leadsEmailTo,
      replyTo: null,
      subject: `No verified backup for ${UNVERIFIED_HOURS} hours`,
      text: `${settings.companyName}'s site has no backup that restored and checked out in the last ${UNVERIFIED_HOURS} hours.\n\nOutbox in the console (${settings.siteUrl}/admin/outbox) shows the last backup and why it failed; "npm run backup" on the server makes one now.\n`,
      html: `<p>${settings.companyName}'s site has no backup that restored and checked out in the last ${UNVERIFIED_HOURS} hours.</p><p><a href="${settings.siteUrl}/admin/outbox">Outbox</a> in the console shows the last backup and why it failed; <code>npm run backup</code> on the server makes one now.</p>`,
    },
    settings.messageIdDomain,
  );
  const [row] = await run<{ warned: number }>("backup_warning", WARN, [JSON.stringify([email])]);
  return (row?.warned ?? 0) > 0;
}

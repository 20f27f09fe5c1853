/** Backups of the whole database: made, verified, kept, restored, and the copy to PostgreSQL. */
export { backupSettings, createBackups, type Backups } from "./backups.server.ts";
export { copyOffMachine, lastBackup } from "./records.server.ts";
export { copyToPostgres, restoreBackup, verifyBackup, type RestoreOutcome } from "./restore.server.ts";
export { startBackups } from "./start.server.ts";

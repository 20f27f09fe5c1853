/** The database: one connection (embedded PGlite in a worker thread, or a PostgreSQL pool) and its migrations. */
export {
  executeRows,
  openDatabase,
  textRows,
  type Database,
  type OpenDatabase,
  type RunStatement,
} from "./db.server.ts";
export type { StreamRows } from "./copy-rows.server.ts";
export { quoteIdentifier, sqlNames } from "./sql-names.server.ts";
export { embeddedDatabaseOwner } from "./db.server.ts";
export { makeDataPrivate } from "./private-files.server.ts";
export { startTypeScriptWorker } from "./typescript-worker.server.ts";
export { analyzeChangedTables, vacuumChangedTables } from "./autovacuum.server.ts";
export { readFeedPage, type FeedPage, type FeedPlace, type FeedRequest } from "./feed-page.server.ts";
export {
  batchesAfter,
  boundedCount,
  boundedMatches,
  keysetPage,
  keysetQuery,
  type ListCursor,
} from "./keyset.server.ts";

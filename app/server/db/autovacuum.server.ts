import { quoteIdentifier as quote } from "./sql-names.server.ts";
import type { RunStatement } from "./db.server.ts";

/**
 * What PostgreSQL's autovacuum does, for the embedded database, which runs none (PGlite is PostgreSQL in
 * single-user mode: `SHOW autovacuum` says on, but no worker ever starts). The server's hourly housekeeping calls
 * these on the embedded database only, a table a statement, so that lead intake runs between them.
 *
 * Both go by the database's own counts of changes (`pg_stat_user_tables`), kept since it opened: the embedded
 * database forgets them when it closes, so changes made before a restart are not counted (as PostgreSQL's are not
 * after a crash). A vacuum clears every dead row of the pages changed since the last one, counted or not.
 */

const PUBLIC_TABLES = `
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
  WHERE n.nspname = 'public' AND c.relkind = 'r'`;

/**
 * The tables to vacuum: more dead rows (updated or deleted) than 50 and 2% of the table, more rows inserted since
 * the last vacuum than 1,000 and 2% of the table (so that their pages are marked all-visible and later vacuums pass
 * over them), or a transaction age past 200 million (the vacuum that freezes rows before PostgreSQL's transaction
 * counter wraps around). Autovacuum waits for a fifth of a table; here a vacuum holds the whole database while it
 * runs, so it runs more often on less: at a busy year's size, 0.1-0.25 s for a table with 2% of its rows dead
 * against 2.2-3.3 s with a fifth (docs/BENCHMARKS.md).
 */
const TABLES_TO_VACUUM = `
  SELECT c.relname::text AS name ${PUBLIC_TABLES} AND (
    coalesce(s.n_dead_tup, 0) > 50 + 0.02 * greatest(c.reltuples, 0)
    OR coalesce(s.n_ins_since_vacuum, 0) > 1000 + 0.02 * greatest(c.reltuples, 0)
    OR age(c.relfrozenxid) > 200000000)
  ORDER BY c.relname`;

/**
 * The tables whose planner statistics are missing or out of date: a table with rows and no statistics, and one
 * whose rows changed since it was last analyzed by more than autovacuum waits for by default (50 rows plus a tenth
 * of the table).
 */
const TABLES_TO_ANALYZE = `
  SELECT c.relname::text AS name ${PUBLIC_TABLES} AND (
    (pg_relation_size(c.oid) > 0 AND (c.reltuples < 0
      OR (c.reltuples > 0 AND NOT EXISTS (SELECT 1 FROM pg_statistic st WHERE st.starelid = c.oid))))
    OR coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0))
  ORDER BY c.relname`;

/** Runs `command` on each table `query` names, one statement a table, and returns their names. */
async function eachTable(run: RunStatement, query: [string, string], command: "VACUUM" | "ANALYZE") {
  // The changes counted by the statements just run are made visible to the query.
  await run("statistics-flush", "SELECT pg_stat_force_next_flush()", []);
  const tables = (await run<{ name: string }>(...query, [])).map((table) => table.name);
  for (const table of tables) await run(`${command.toLowerCase()}-${table}`, `${command} ${quote(table)}`, []);
  return tables;
}

/**
 * Vacuums each table whose rows changed enough since its last vacuum, and returns their names. Without it the space
 * of deleted and updated rows was never used again: the data folder grew by every row the retention purge deleted
 * and by every version of every email the outbox marked, for as long as the site ran.
 */
export function vacuumChangedTables(run: RunStatement): Promise<string[]> {
  return eachTable(run, ["autovacuum-tables-to-vacuum", TABLES_TO_VACUUM], "VACUUM");
}

/**
 * Analyzes each table whose planner statistics are missing or out of date, and returns their names. Without it
 * the embedded database's tables never had statistics: at a busy year's size the dashboard then took 5-9 s instead
 * of 0.2. A table's analysis reads a sample of its rows (up to 1.4 s for a year's emails, while other statements
 * wait).
 */
export function analyzeChangedTables(run: RunStatement): Promise<string[]> {
  return eachTable(run, ["statistics-stale-tables", TABLES_TO_ANALYZE], "ANALYZE");
}

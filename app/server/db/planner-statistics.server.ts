import { quoteIdentifier as quote } from "./sql-names.server.ts";
import type { RunStatement } from "./db.server.ts";

/**
 * The tables whose planner statistics are missing or out of date: a table with rows and no statistics, and one
 * whose rows changed since it was last analyzed by more than PostgreSQL's autovacuum waits for by default (50 rows
 * plus a tenth of the table). The counts of changes are the database's own, kept since it opened: the embedded
 * database forgets them when it closes, so changes made before a restart are not counted (as PostgreSQL's are not
 * after a crash), but a table never goes without statistics.
 */
const TABLES_TO_ANALYZE = `
  SELECT c.relname::text AS name
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
  WHERE n.nspname = 'public' AND c.relkind = 'r' AND (
    (pg_relation_size(c.oid) > 0 AND (c.reltuples < 0
      OR (c.reltuples > 0 AND NOT EXISTS (SELECT 1 FROM pg_statistic st WHERE st.starelid = c.oid))))
    OR coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0))
  ORDER BY c.relname`;

/**
 * Analyzes each table whose planner statistics are missing or out of date, one statement a table, and returns
 * their names. The embedded database runs no autovacuum, so without this its tables would never have statistics:
 * at a busy year's size the dashboard then took 5-9 s instead of 0.2. PostgreSQL's autovacuum does the same on its
 * own. A table's analysis reads a sample of its rows (up to 1.4 s for a year's emails, while other statements wait).
 */
export async function analyzeChangedTables(run: RunStatement): Promise<string[]> {
  // The changes counted by the statements just run are made visible to the query below.
  await run("statistics-flush", "SELECT pg_stat_force_next_flush()", []);
  const tables = (await run<{ name: string }>("statistics-stale-tables", TABLES_TO_ANALYZE, [])).map((t) => t.name);
  for (const table of tables) await run(`statistics-analyze-${table}`, `ANALYZE ${quote(table)}`, []);
  return tables;
}

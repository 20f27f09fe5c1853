/**
 * What a backup records of a database and a restore checks again: its tables in an order that puts every table
 * after the tables it references, each table's row count, its sequences' positions, and how many of the project's
 * migrations it has. Read from PostgreSQL's catalogs, so it works on PGlite and PostgreSQL alike.
 */
export interface DatabaseFacts {
  /** The application's tables, each after those its foreign keys reference. */
  tables: string[];
  counts: Record<string, number>;
  /** Each sequence's last value (null before its first use). */
  sequences: Record<string, number | null>;
  /** How many of the project's migrations have been applied. */
  migrations: number;
}

type CatalogQuery = (text: string) => Promise<Record<string, unknown>[]>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

const TABLES = `SELECT c.relname AS name,
    coalesce(array_agg(DISTINCT r.relname::text) FILTER (WHERE r.relname IS NOT NULL AND r.oid <> c.oid), '{}') AS refs
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'f'
  LEFT JOIN pg_class r ON r.oid = k.confrelid
  WHERE n.nspname = 'public' AND c.relkind = 'r'
  GROUP BY c.relname, c.oid
  ORDER BY c.relname`;

/** The tables, each after the tables it references (names sorted within a level, so the order is stable). */
async function tablesInOrder(query: CatalogQuery): Promise<string[]> {
  const rows = (await query(TABLES)) as { name: string; refs: string[] }[];
  const waiting = new Map(rows.map((row) => [row.name, new Set(row.refs)]));
  const ordered: string[] = [];
  while (waiting.size > 0) {
    const ready = [...waiting].filter(([, refs]) => [...refs].every((ref) => !waiting.has(ref)));
    if (ready.length === 0) throw new Error("The tables' foreign keys form a cycle.");
    for (const [name] of ready) {
      ordered.push(name);
      waiting.delete(name);
    }
  }
  return ordered;
}

export async function databaseFacts(query: CatalogQuery): Promise<DatabaseFacts> {
  const tables = await tablesInOrder(query);
  const [countRow] =
    tables.length === 0
      ? [{}]
      : await query(
          `SELECT ${tables.map((table) => `(SELECT count(*) FROM ${quote(table)})::int AS ${quote(table)}`).join(", ")}`,
        );
  const sequenceRows = (await query(
    "SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1",
  )) as { name: string; value: string | null }[];
  const [migrationRow] = await query(
    `SELECT count(*)::int AS applied FROM pg_tables WHERE schemaname = 'drizzle' AND tablename = '__drizzle_migrations'`,
  );
  const migrations = migrationRow?.applied
    ? Number((await query('SELECT count(*)::int AS n FROM drizzle."__drizzle_migrations"'))[0]?.n ?? 0)
    : 0;
  return {
    tables,
    counts: Object.fromEntries(tables.map((table) => [table, Number((countRow as Record<string, unknown>)[table])])),
    sequences: Object.fromEntries(sequenceRows.map((row) => [row.name, row.value === null ? null : Number(row.value)])),
    migrations,
  };
}

import { quoteIdentifier as quote } from "../db/index.server.ts";
/**
 * What a backup records of a database and a restore checks again: its tables in an order that puts every table
 * after the tables it references, each table's row count, its sequences' positions, and how many of the project's
 * migrations it has. Read from PostgreSQL's catalogs, so it works on PGlite and PostgreSQL alike.
 */
export interface DatabaseFacts {
  /** The application's tables but the derived ones, each after those its foreign keys reference. */
  tables: string[];
  counts: Record<string, number>;
  /** Each sequence's last value (null before its first use). */
  sequences: Record<string, number | null>;
  /** How many of the project's migrations have been applied. */
  migrations: number;
}

export type CatalogQuery = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * How a migration marks a table whose rows are made from other tables' rows (the leads' daily totals), with a comment
 * that begins so: a backup leaves it out, and the owner makes its rows again from the restored ones.
 */
const DERIVED_TABLE = "derived:";

const TABLES = `SELECT c.relname AS name,
    coalesce(array_agg(DISTINCT r.relname::text) FILTER (WHERE r.relname IS NOT NULL AND r.oid <> c.oid), '{}') AS refs
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'f'
  LEFT JOIN pg_class r ON r.oid = k.confrelid
  WHERE n.nspname = 'public' AND c.relkind = 'r'
    AND coalesce(obj_description(c.oid, 'pg_class'), '') NOT LIKE '${DERIVED_TABLE}%'
  GROUP BY c.relname, c.oid
  ORDER BY c.relname`;

/**
 * The tables a backup holds, each after the tables it references (names sorted within a level, so the order is
 * stable): every table but the derived ones.
 */
export async function tablesInOrder(query: CatalogQuery): Promise<string[]> {
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

/** How many rows each table holds now, in one statement. */
async function rowCounts(query: CatalogQuery, tables: string[]): Promise<Record<string, number>> {
  if (tables.length === 0) return {};
  const [row] = await query(
    `SELECT ${tables.map((table) => `(SELECT count(*) FROM ${quote(table)})::int AS ${quote(table)}`).join(", ")}`,
  );
  return Object.fromEntries(tables.map((table) => [table, Number(row?.[table])]));
}

/** Each sequence's last value (null before its first use). */
export async function sequencePositions(query: CatalogQuery): Promise<Record<string, number | null>> {
  const rows = (await query(
    "SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1",
  )) as { name: string; value: string | null }[];
  return Object.fromEntries(rows.map((row) => [row.name, row.value === null ? null : Number(row.value)]));
}

/** How many of the project's migrations have been applied. */
export async function migrationsApplied(query: CatalogQuery): Promise<number> {
  const [row] = await query(
    `SELECT count(*)::int AS applied FROM pg_tables WHERE schemaname = 'drizzle' AND tablename = '__drizzle_migrations'`,
  );
  return row?.applied
    ? Number((await query('SELECT count(*)::int AS n FROM drizzle."__drizzle_migrations"'))[0]?.n ?? 0)
    : 0;
}

export async function databaseFacts(query: CatalogQuery): Promise<DatabaseFacts> {
  const tables = await tablesInOrder(query);
  return {
    tables,
    counts: await rowCounts(query, tables),
    sequences: await sequencePositions(query),
    migrations: await migrationsApplied(query),
  };
}

/** A table's primary key: its columns in the key's order, each with its type as SQL writes it. */
export interface PrimaryKey {
  columns: string[];
  types: string[];
}

/** Each table's primary key (a table without one is absent). */
export async function primaryKeys(query: CatalogQuery): Promise<Map<string, PrimaryKey>> {
  const rows = (await query(`SELECT c.relname::text AS name,
      array_agg(a.attname::text ORDER BY k.ord) AS columns,
      array_agg(format_type(a.atttypid, a.atttypmod) ORDER BY k.ord) AS types
    FROM pg_constraint p
    JOIN pg_class c ON c.oid = p.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    CROSS JOIN LATERAL unnest(p.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = p.conrelid AND a.attnum = k.attnum
    WHERE p.contype = 'p' AND n.nspname = 'public'
    GROUP BY c.relname`)) as { name: string; columns: string[]; types: string[] }[];
  return new Map(rows.map((row) => [row.name, { columns: row.columns, types: row.types }]));
}

/** A foreign key whose rows go with the row they reference (ON DELETE CASCADE). */
interface CascadingReference {
  columns: string[];
  parent: string;
  parentColumns: string[];
}

/** Each table's cascading foreign keys. */
export async function cascadingReferences(query: CatalogQuery): Promise<Map<string, CascadingReference[]>> {
  const rows = (await query(`SELECT c.relname::text AS name, p.relname::text AS parent,
      array_agg(ca.attname::text ORDER BY k.ord) AS columns,
      array_agg(pa.attname::text ORDER BY k.ord) AS parent_columns
    FROM pg_constraint f
    JOIN pg_class c ON c.oid = f.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_class p ON p.oid = f.confrelid
    CROSS JOIN LATERAL unnest(f.conkey, f.confkey) WITH ORDINALITY AS k(child_attnum, parent_attnum, ord)
    JOIN pg_attribute ca ON ca.attrelid = f.conrelid AND ca.attnum = k.child_attnum
    JOIN pg_attribute pa ON pa.attrelid = f.confrelid AND pa.attnum = k.parent_attnum
    WHERE f.contype = 'f' AND f.confdeltype = 'c' AND n.nspname = 'public'
    GROUP BY f.oid, c.relname, p.relname`)) as {
    name: string;
    parent: string;
    columns: string[];
    parent_columns: string[];
  }[];
  const references = new Map<string, CascadingReference[]>();
  for (const row of rows) {
    const reference = { columns: row.columns, parent: row.parent, parentColumns: row.parent_columns };
    references.set(row.name, [...(references.get(row.name) ?? []), reference]);
  }
  return references;
}

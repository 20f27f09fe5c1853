import { getTableColumns, getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * The quoted SQL names of a drizzle table and its columns, keyed by their TypeScript names, for the
 * hand-written statements on the hot path: renaming a column in the schema renames it in that SQL,
 * and removing or renaming its TypeScript key fails the type-check.
 */
export function sqlNames<T extends PgTable>(table: T): { table: string } & Record<keyof T["_"]["columns"], string> {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, quoteIdentifier(column.name)]);
  return { ...Object.fromEntries(columns), table: quoteIdentifier(getTableName(table)) } as never;
}

/** A table's, column's or index's name as SQL writes it, quoted. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

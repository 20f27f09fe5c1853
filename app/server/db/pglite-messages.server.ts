/** What db.server.ts (through pglite-thread.server.ts) and the PGlite worker thread say to each other. */

export type PgliteRequest =
  /** Opens (creating if need be) and migrates a database; a thread holds one at a time. */
  | { kind: "open"; id: number; dataDir: string; migrationsFolder: string }
  /**
   * One of the hot path's hand-written statements, prepared once under `name`; `first`: it goes before the
   * statements already waiting for the database.
   */
  | { kind: "run"; id: number; name: string; text: string; params: unknown[]; first?: boolean }
  /** A query from drizzle: rows as arrays for its selects, as objects otherwise. */
  | { kind: "query"; id: number; text: string; params: unknown[]; rowMode: "array" | "object" }
  /** Answers the statements already received, then closes the database; the thread stays for the next. */
  | { kind: "close"; id: number };

export interface SerializedError {
  message: string;
  [field: string]: string | number;
}

export type PgliteReply = { id: number; rows: unknown[] } | { id: number; error: SerializedError };

/** What db.server.ts and the PGlite worker thread (pglite-worker.server.ts) say to each other. */

export interface PgliteWorkerData {
  dataDir: string;
  migrationsFolder: string;
}

export type PgliteRequest =
  /** One of the hot path's hand-written statements, prepared once under `name`. */
  | { kind: "run"; id: number; name: string; text: string; params: unknown[] }
  /** A query from drizzle: rows as arrays for its selects, as objects otherwise. */
  | { kind: "query"; id: number; text: string; params: unknown[]; rowMode: "array" | "object" }
  | { kind: "close" };

export interface SerializedError {
  message: string;
  [field: string]: string | number;
}

export type PgliteReply = { ready: true } | { id: number; rows: unknown[] } | { id: number; error: SerializedError };

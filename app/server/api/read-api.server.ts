import type { Database, RunStatement } from "../db/index.server.ts";
import { findStatement } from "../ledger/index.server.ts";
import { createPostRateLimit } from "../limits/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { keyOfAuthorization } from "./keys.server.ts";
import { cursorOf, readPageQuery } from "./page-query.server.ts";
import { API_RESOURCES, type ApiResource } from "./resources.server.ts";
import type { ApiScope } from "./schema.server.ts";

/**
 * The read API: `GET /api/v1/<resource>` for a key with the resource's scope, newest first in pages of `limit`
 * with a cursor back in time, or oldest first after a row the tool already has. The outcome says what to answer;
 * the edge speaks HTTP.
 */

export type ApiOutcome =
  | { kind: "ok"; body: { data: Record<string, unknown>[]; has_more: boolean; next_cursor: string | null } }
  | { kind: "file"; csv: string; filename: string }
  | { kind: "not-found" }
  /** No key, or a wrong, malformed or revoked one: the same answer for each. */
  | { kind: "unauthorized" }
  | { kind: "forbidden"; scope: string }
  | { kind: "invalid"; error: string }
  | { kind: "limited"; retryAfterSeconds: number };

export function createReadApi(options: {
  db: Database;
  run: RunStatement;
  perMinute: number;
  /** How old a row must be before it is read as newer than a place: longer than any statement runs. */
  settleMs: number;
  /** The site's address, which links in answers start with. */
  siteUrl: string;
}) {
  // Each key's requests in the shared per-minute window counter (its rows are "post:api-key:<id>").
  const countRequest = createPostRateLimit(options.run, options.perMinute);
  /** The key, its scope and its limit: the refusal, or null when the request may be answered. */
  async function refusal(authorization: string | undefined, scope: ApiScope): Promise<ApiOutcome | null> {
    const key = await keyOfAuthorization(options.db, authorization);
    if (!key) return { kind: "unauthorized" };
    if (!key.scopes.includes(scope)) return { kind: "forbidden", scope };
    const limit = await countRequest(`api-key:${key.id}`);
    if (!limit.allowed) return { kind: "limited", retryAfterSeconds: limit.retryAfterSeconds };
    return null;
  }
  return {
    async read(name: ApiResource, authorization: string | undefined, query: URLSearchParams): Promise<ApiOutcome> {
      const resource = API_RESOURCES[name];
      const refused = await refusal(authorization, resource.scope);
      if (refused) return refused;
      const parsed = readPageQuery(query);
      if (!parsed.ok) return { kind: "invalid", error: parsed.error };
      const { direction } = parsed.request;
      const page = await resource.list(
        options.db,
        { ...parsed.request, settleMs: options.settleMs },
        { siteUrl: options.siteUrl },
      );
      if (!page) {
        return {
          kind: "invalid",
          error: `after must name a ${resource.noun} that exists; this one may have been deleted: pass the last next_cursor instead.`,
        };
      }
      // Newest first, the cursor reads further back while there is more. Oldest first, it is where the tool has
      // read to, always: the next request's after.
      const next = direction === "older" ? (page.more ? page.last : null) : (page.last ?? page.from);
      return {
        kind: "ok",
        body: {
          data: page.data,
          has_more: page.more,
          next_cursor: next ? cursorOf(direction, next) : null,
        },
      };
    },

    /** A statement's CSV, the same bytes as issued (its `csv_url`). */
    async statementCsv(authorization: string | undefined, id: string): Promise<ApiOutcome> {
      const refused = await refusal(authorization, "ledger:read");
      if (refused) return refused;
      const statement = isRowId(id) ? await findStatement(options.db, id) : null;
      if (!statement) return { kind: "not-found" };
      return { kind: "file", csv: statement.csv, filename: `statement-${statement.number}-${statement.period}.csv` };
    },
  };
}

export type ReadApi = ReturnType<typeof createReadApi>;

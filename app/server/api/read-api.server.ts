import type { Database, RunStatement } from "../db/index.server.ts";
import { createPostRateLimit } from "../limits/index.server.ts";
import { keyOfAuthorization } from "./keys.server.ts";
import { cursorOf, readPageQuery } from "./page-query.server.ts";
import { API_RESOURCES, type ApiResource } from "./resources.server.ts";

/**
 * The read API: `GET /api/v1/<resource>` for a key with the resource's scope, newest first in pages of `limit`
 * with a cursor back in time, or oldest first after a row the tool already has. The outcome says what to answer;
 * the edge speaks HTTP.
 */

type ApiOutcome =
  | { kind: "ok"; body: { data: Record<string, unknown>[]; has_more: boolean; next_cursor: string | null } }
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
}) {
  // Each key's requests in the shared per-minute window counter (its rows are "post:api-key:<id>").
  const countRequest = createPostRateLimit(options.run, options.perMinute);
  return {
    async read(name: ApiResource, authorization: string | undefined, query: URLSearchParams): Promise<ApiOutcome> {
      const key = await keyOfAuthorization(options.db, authorization);
      if (!key) return { kind: "unauthorized" };
      const resource = API_RESOURCES[name];
      if (!key.scopes.includes(resource.scope)) return { kind: "forbidden", scope: resource.scope };
      const limit = await countRequest(`api-key:${key.id}`);
      if (!limit.allowed) return { kind: "limited", retryAfterSeconds: limit.retryAfterSeconds };
      const parsed = readPageQuery(query);
      if (!parsed.ok) return { kind: "invalid", error: parsed.error };
      const { direction } = parsed.request;
      const page = await resource.list(options.db, { ...parsed.request, settleMs: options.settleMs });
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
  };
}

export type ReadApi = ReturnType<typeof createReadApi>;

import type { Database, RunStatement } from "../db/index.server.ts";
import { callsPage } from "../calls/index.server.ts";
import { leadsPage } from "../leads/index.server.ts";
import { createPostRateLimit } from "../limits/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { parseApiTime } from "./api-time.server.ts";
import { keyOfAuthorization } from "./keys.server.ts";

/**
 * The read API: `GET /api/v1/leads` and `GET /api/v1/calls`, for a key with the matching scope, oldest first from
 * `since`, in pages of `limit` (1–100, default 50) with an opaque cursor to the next page. The outcome says what to
 * answer; the edge speaks HTTP.
 */

export const API_RESOURCES = { leads: "leads:read", calls: "calls:read" } as const;
export type ApiResource = keyof typeof API_RESOURCES;

type ApiOutcome =
  | { kind: "ok"; body: { data: Record<string, unknown>[]; next_cursor: string | null } }
  /** No key, or a wrong, malformed or revoked one: the same answer for each. */
  | { kind: "unauthorized" }
  | { kind: "forbidden"; scope: string }
  | { kind: "invalid"; error: string }
  | { kind: "limited"; retryAfterSeconds: number };

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The page's last row, as the next page's opaque cursor. */
const cursorOf = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString("base64url");

function readCursor(text: string): { at: string; id: string } | null {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof at !== "string" || typeof id !== "string" || !isRowId(id) || !parseApiTime(at)) return null;
    return { at, id };
  } catch {
    return null;
  }
}

function readQuery(query: URLSearchParams) {
  const sinceText = query.get("since");
  const since = sinceText === null ? null : parseApiTime(sinceText);
  if (sinceText !== null && !since) {
    return { error: "since must be an ISO 8601 time with its zone, such as 2026-11-01T00:00:00Z." } as const;
  }
  const limitText = query.get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    return { error: `limit must be a whole number from 1 to ${MAX_LIMIT}.` } as const;
  }
  const cursorText = query.get("cursor");
  const after = cursorText === null ? null : readCursor(cursorText);
  if (cursorText !== null && (!after || cursorText.length > 200)) {
    return { error: "cursor must be a next_cursor this API gave." } as const;
  }
  return { since: since?.at ?? null, limit, after } as const;
}

export function createReadApi(options: { db: Database; run: RunStatement; perMinute: number }) {
  // Each key's requests in the shared per-minute window counter (its rows are "post:api-key:<id>").
  const countRequest = createPostRateLimit(options.run, options.perMinute);
  return {
    async read(resource: ApiResource, authorization: string | undefined, query: URLSearchParams): Promise<ApiOutcome> {
      const key = await keyOfAuthorization(options.db, authorization);
      if (!key) return { kind: "unauthorized" };
      const scope = API_RESOURCES[resource];
      if (!key.scopes.includes(scope)) return { kind: "forbidden", scope };
      const limit = await countRequest(`api-key:${key.id}`);
      if (!limit.allowed) return { kind: "limited", retryAfterSeconds: limit.retryAfterSeconds };
      const parsed = readQuery(query);
      if ("error" in parsed) return { kind: "invalid", error: parsed.error ?? "" };
      const page = { since: parsed.since, after: parsed.after, limit: parsed.limit };
      if (resource === "leads") {
        const rows = await leadsPage(options.db, page);
        const last = rows.at(-1);
        return {
          kind: "ok",
          body: {
            data: rows.map((row) => ({
              id: row.id,
              received_at: iso(row.receivedAt),
              first_name: row.firstName,
              last_name: row.lastName,
              email: row.email,
              phone: row.phone,
              service: row.service,
              message: row.message,
              status: row.status,
              zip: row.zip,
              channel: row.channel,
              global_privacy_control: row.globalPrivacyControl,
              attribution: {
                landing_path: row.landingPath,
                referrer_host: row.referrerHost,
                utm_source: row.utmSource,
                utm_medium: row.utmMedium,
                utm_campaign: row.utmCampaign,
                utm_term: row.utmTerm,
                utm_content: row.utmContent,
                gclid: row.gclid,
                msclkid: row.msclkid,
              },
            })),
            next_cursor: last && rows.length === parsed.limit ? cursorOf(last.cursorAt, last.id) : null,
          },
        };
      }
      const rows = await callsPage(options.db, page);
      const last = rows.at(-1);
      return {
        kind: "ok",
        body: {
          data: rows.map((row) => ({
            id: row.id,
            started_at: iso(row.startedAt),
            ended_at: iso(row.endedAt),
            caller: row.caller,
            called: row.called,
            line: row.line,
            status: row.status,
            duration_seconds: row.durationSeconds,
            attribution: {
              landing_path: row.landingPath,
              utm_source: row.utmSource,
              utm_medium: row.utmMedium,
              utm_campaign: row.utmCampaign,
              gclid: row.gclid,
              msclkid: row.msclkid,
            },
          })),
          next_cursor: last && rows.length === parsed.limit ? cursorOf(last.cursorAt, last.id) : null,
        },
      };
    },
  };
}

export type ReadApi = ReturnType<typeof createReadApi>;

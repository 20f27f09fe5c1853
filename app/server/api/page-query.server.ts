import type { FeedPlace, FeedRequest } from "../db/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { parseApiTime } from "./api-time.server.ts";

/**
 * A list's query string: newest first by default, back in time by `cursor`; `after` (a row's id or a cursor) for
 * what is newer than a row, oldest first; `since` (exclusive) and `limit` (1–100). A cursor is opaque: base64url
 * of the way it reads and the place of its page's last row.
 */

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
const CURSOR_MAX_LENGTH = 200;

type Direction = FeedRequest["direction"];

export const cursorOf = (direction: Direction, place: FeedPlace) =>
  Buffer.from(JSON.stringify([direction, place.at, place.id])).toString("base64url");

/**
 * A cursor's way and place. Cursors from before newest-first paging were the place alone ([time, id]), read
 * oldest first: `legacy`.
 */
function readCursor(text: string): { direction: Direction | "legacy"; place: FeedPlace } | null {
  if (text.length > CURSOR_MAX_LENGTH) return null;
  try {
    const parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(parsed)) return null;
    const [direction, at, id] = parsed.length === 2 ? ["legacy", ...parsed] : parsed;
    if (direction !== "older" && direction !== "newer" && direction !== "legacy") return null;
    if (typeof at !== "string" || !parseApiTime(at) || !isRowId(id)) return null;
    return { direction, place: { at, id } };
  } catch {
    return null;
  }
}

const LEGACY_CURSOR =
  "cursor must be a next_cursor this API gave since pages became newest first: this one is from the oldest-first pages before; pass it as after= to read what is newer than it.";

/** The page a query asks for, without its settling time, or what is wrong with it. */
export function readPageQuery(
  query: URLSearchParams,
): { ok: true; request: Omit<FeedRequest, "settleMs"> } | { ok: false; error: string } {
  const sinceText = query.get("since");
  const since = sinceText === null ? null : parseApiTime(sinceText);
  if (sinceText !== null && !since) {
    return { ok: false, error: "since must be an ISO 8601 time with its zone, such as 2026-11-01T00:00:00Z." };
  }
  const limitText = query.get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    return { ok: false, error: `limit must be a whole number from 1 to ${MAX_LIMIT}.` };
  }
  const common = { since: since?.at ?? null, limit };
  const cursorText = query.get("cursor");
  const afterText = query.get("after");
  if (cursorText !== null && afterText !== null) {
    return { ok: false, error: "cursor must not come with after: a cursor already says where to read from." };
  }
  if (cursorText !== null) {
    const cursor = readCursor(cursorText);
    if (!cursor) return { ok: false, error: "cursor must be a next_cursor this API gave." };
    if (cursor.direction === "legacy") return { ok: false, error: LEGACY_CURSOR };
    return { ok: true, request: { ...common, direction: cursor.direction, from: cursor.place } };
  }
  if (afterText !== null) {
    // Empty: from the first row.
    if (afterText === "") return { ok: true, request: { ...common, direction: "newer", from: null } };
    if (isRowId(afterText)) return { ok: true, request: { ...common, direction: "newer", from: { id: afterText } } };
    const cursor = readCursor(afterText);
    if (!cursor) return { ok: false, error: "after must be the id of a row or a cursor this API gave." };
    return { ok: true, request: { ...common, direction: "newer", from: cursor.place } };
  }
  return { ok: true, request: { ...common, direction: "older", from: null } };
}

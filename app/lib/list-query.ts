import { z } from "zod";
import { SEARCH_MAX_LENGTH } from "./console-limits.ts";

const rowId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

/**
 * The query-string fields every paged console list takes: the search `q` (at most SEARCH_MAX_LENGTH characters), and
 * where the page starts: `before` (the older rows than the row it names) or `after` (the newer ones), never both. A
 * list adds its own filter beside them.
 */
export const listQueryFields = {
  q: z.string().trim().max(SEARCH_MAX_LENGTH).default(""),
  before: rowId.optional(),
  after: rowId.optional(),
};

/** A list's query is refused when it names both ends of a page. */
export const oneCursor = (query: { before?: string; after?: string }) =>
  query.before === undefined || query.after === undefined;

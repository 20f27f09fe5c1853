import { z } from "zod";
import { SEARCH_MAX_LENGTH } from "./console-limits.ts";

/** The last page a console list may be asked for. */
const MAX_PAGE = 10_000;

/**
 * The query-string fields every paged console list takes: `page` (1 to 10,000) and the search `q` (at most
 * SEARCH_MAX_LENGTH characters). A list adds its own filter beside them.
 */
export const listQueryFields = {
  page: z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE))
    .default(1),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).default(""),
};

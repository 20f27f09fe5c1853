import { Link } from "react-router";
import { linkClass } from "./TableRegion.tsx";

/** A page of a console list, newest first: the first and last rows' ids, and whether there are more either way. */
interface ListPage {
  rows: { id: string }[];
  newer: boolean;
  older: boolean;
}

/** "Newer" and "Older" pages of a console list, when there are any. */
export function PageLinks({
  label,
  list,
  href,
}: {
  label: string;
  list: ListPage;
  href(cursor: { before?: string; after?: string }): string;
}) {
  const first = list.rows[0];
  const last = list.rows.at(-1);
  if (!first || !last || (!list.newer && !list.older)) return null;
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center gap-4">
      {list.newer ? (
        <Link to={href({ after: first.id })} className={linkClass} rel="prev">
          Newer
        </Link>
      ) : null}
      {list.older ? (
        <Link to={href({ before: last.id })} className={linkClass} rel="next">
          Older
        </Link>
      ) : null}
    </nav>
  );
}

/** "1 call", "1,234 calls", or "More than 10,000 calls" past the limit the list was counted to. */
export function countOf(total: number, limit: number, one: string, many: string): string {
  if (total > limit) return `More than ${limit.toLocaleString("en-US")} ${many}`;
  return `${total.toLocaleString("en-US")} ${total === 1 ? one : many}`;
}

/** The address of a page of a console list, with its search and filter; empty fields are left out. */
export function listPageHref(
  path: string,
  fields: Record<string, string>,
  cursor: { before?: string; after?: string } = {},
): string {
  const params = new URLSearchParams(
    Object.entries({ ...fields, ...cursor }).filter(([, value]) => value !== undefined && value !== ""),
  );
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

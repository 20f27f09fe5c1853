import { Link } from "react-router";
import { linkClass } from "./TableRegion.tsx";

/** "Previous page", where the list is, and "Next page", when a console list has more than one page. */
export function PageLinks({
  label,
  page,
  pageCount,
  href,
}: {
  label: string;
  page: number;
  pageCount: number;
  href(page: number): string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center gap-4">
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass} rel="prev">
          Previous page
        </Link>
      ) : null}
      <span className="text-slate-800">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClass} rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}

/** The address of a page of a console list, with its search and filter; page 1 and empty fields are left out. */
export function listPageHref(path: string, fields: Record<string, string>, page: number): string {
  const params = new URLSearchParams(Object.entries(fields).filter(([, value]) => value !== ""));
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

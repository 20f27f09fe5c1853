/** Where the console may send an operator after sign-in: a path of this site under /admin, never elsewhere. */
export function consoleNextPath(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > 2_000) return "/admin";
  // Browsers treat "\" as "/" and ignore tabs and newlines, so "/admin\@evil" or "/\t/evil" could leave the site.
  if (/[\\\s\x00-\x1f]/.test(raw) || !/^\/admin(?:[/?#]|$)/.test(raw) || raw.includes("//")) return "/admin";
  const url = new URL(raw, "http://console.invalid");
  // Dot segments resolve here: "/admin/../contact" is "/contact", which is not the console.
  const outside = url.origin !== "http://console.invalid" || !/^\/admin(?:\/|$)/.test(url.pathname);
  if (outside || url.pathname.startsWith("/admin/login")) return "/admin";
  return `${url.pathname}${url.search}`;
}

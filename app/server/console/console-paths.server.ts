/**
 * Whether a URL path belongs to the operator console, including /admin.data (the console inbox's data
 * request). Doubled slashes, any letter case and percent-encoded letters count too, since the router may
 * still match them to a console route.
 */
export function isConsolePath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape stays as it was; the router will not match it either.
  }
  return /^\/+admin(?:\/|\.data$|$)/i.test(decoded);
}

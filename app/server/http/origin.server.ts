/**
 * Whether a POST may come from where the browser says it comes from: this host, the site's
 * public URL (a proxy may rewrite Host), or an origin the operator allowed. Requests without
 * Origin (curl, server-to-server) carry no ambient credentials and pass.
 */
export function isAllowedOrigin(origin: string | null, requestHost: string, allowedOrigins: string[]): boolean {
  if (origin === null) return true;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  return originUrl.host === requestHost || allowedOrigins.includes(originUrl.origin);
}

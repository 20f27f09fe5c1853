import { canonicalUrl } from "~/lib/seo.ts";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character]!);
}

/** A sitemaps.org XML sitemap of the given paths, as absolute canonical URLs. */
export function sitemapXml(paths: readonly string[]): string {
  const urls = paths.map((path) => `  <url><loc>${escapeXml(canonicalUrl(path))}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** Every crawler may read every page but the operator console; the sitemap says where they are. */
export function robotsTxt(): string {
  return `User-agent: *\nAllow: /\nDisallow: /admin\n\nSitemap: ${canonicalUrl("/sitemap.xml")}\n`;
}

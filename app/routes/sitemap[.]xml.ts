import { sitePaths } from "~/content/site-pages.ts";
import { sitemapXml } from "~/lib/sitemap.ts";

export function loader() {
  return new Response(sitemapXml(sitePaths), { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}

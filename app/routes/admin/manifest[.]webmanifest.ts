import type { Route } from "./+types/manifest[.]webmanifest";
import { siteConfig } from "~/config/site.ts";
import { requireOperator } from "~/server/console/index.server.ts";

/** The console as an installable app: it opens on the inbox, and its scope is /admin/ only. */
export function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const manifest = {
    name: `${siteConfig.companyName} console`,
    short_name: siteConfig.companyName,
    id: "/admin/",
    start_url: "/admin",
    scope: "/admin/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#1e40af",
    icons: [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "no-store" },
  });
}

import type { Config } from "@react-router/dev/config";
import { env } from "./app/config/env.server.ts";
import { join } from "node:path";
import { sitePaths } from "./app/content/site-pages.ts";
// The files themselves: the config is loaded without the app's "~" alias, which the module's other files use.
import { compressBuiltAssets } from "./app/server/http/built-assets.server.ts";
import { compressPrerenderedPages } from "./app/server/http/prerendered-pages.server.ts";

export default {
  ssr: true,
  // React Router 8's behaviour, taken now (docs/decisions/292-react-router-8-behaviour-now.md).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
  buildDirectory: env.BUILD_DIR,
  // Every public page is static HTML, with the sitemap and robots.txt. The operator console under /admin
  // is never prerendered: it is per operator and behind sign-in. Form posts and unknown paths still reach
  // the server renderer; the lead API is served by Express.
  prerender: [...sitePaths, "/sitemap.xml", "/robots.txt"],
  // The prerendered pages, scripts and stylesheets are stored compressed beside themselves, once
  // (compressed-copies.server.ts).
  buildEnd: async ({ reactRouterConfig }) => {
    const clientDir = join(reactRouterConfig.buildDirectory, "client");
    await Promise.all([compressPrerenderedPages(clientDir), compressBuiltAssets(join(clientDir, "assets"))]);
  },
} satisfies Config;

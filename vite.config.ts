import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { env, toPublicSiteConfig } from "./app/config/env.server.ts";
import { sonnerStylesheet } from "./tooling/sonner-stylesheet.ts";

export const siteConfigDefine = { __SITE_CONFIG__: JSON.stringify(toPublicSiteConfig(env)) };

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), sonnerStylesheet()],
  define: siteConfigDefine,
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    assetsInlineLimit: 0,
    minify: true,
    // No "[PLUGIN_TIMINGS]" warning at `npm start` on a busy machine: that React Router's and Tailwind's plugins take
    // most of the build's time is a note for their authors, not for whoever starts the site.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});

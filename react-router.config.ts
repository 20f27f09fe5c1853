import type { Config } from "@react-router/dev/config";

/** Resource routes answered only by the server (never prerendered to a file). */
const SERVER_ONLY_PATHS = ["/functions/"];

export default {
  ssr: true,
  // Every route without dynamic segments is prerendered: all content routes are static HTML.
  // Form posts, the API and unknown paths still reach the server renderer.
  prerender: ({ getStaticPaths }) =>
    getStaticPaths().filter((path) => !SERVER_ONLY_PATHS.some((prefix) => path.startsWith(prefix))),
} satisfies Config;

import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // `true` prerenders every route without dynamic segments: all content routes are static HTML.
  // Form posts and unknown paths still reach the server renderer; the lead API is served by Express.
  prerender: true,
} satisfies Config;

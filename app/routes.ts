import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("ccpa-privacy", "routes/ccpa-privacy.tsx"),
  route("quiz", "routes/quiz.tsx"),
  route("terms", "routes/terms.tsx"),
  route("plumbers", "routes/plumbers.tsx"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
] satisfies RouteConfig;

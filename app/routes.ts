import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** A page rendered from its content module by the one landing-page route (app/content/landing-pages.ts). */
const landingPage = (path: string) => route(path, "routes/landing-page.tsx", { id: path.slice(1) });

export default [
  index("routes/home.tsx"),
  landingPage("/about"),
  landingPage("/allrepairs"),
  landingPage("/toilet-services"),
  landingPage("/water-heater-services"),
  landingPage("/drain-services"),
  landingPage("/sewer-services"),
  landingPage("/well-pump-services"),
  landingPage("/faucet-services"),
  landingPage("/gas-line-services"),
  landingPage("/water-softener-services"),
  landingPage("/handyman-plumber"),
  landingPage("/hvac-services"),
  route("contact", "routes/contact.tsx"),
  route("do-not-sell", "routes/do-not-sell.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("ccpa-privacy", "routes/ccpa-privacy.tsx"),
  route("quiz", "routes/quiz.tsx"),
  route("terms", "routes/terms.tsx"),
  route("plumbers", "routes/plumbers.tsx"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  // The operator console: sign-in and sign-out outside its layout, every other page inside it.
  ...prefix("admin", [
    route("login", "routes/admin/login.tsx"),
    route("logout", "routes/admin/logout.tsx"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/inbox.tsx"),
      route("leads/:id", "routes/admin/lead.tsx"),
      route("opt-outs", "routes/admin/opt-outs.tsx"),
      route("outbox", "routes/admin/outbox.tsx"),
      route("export/leads.csv", "routes/admin/export-leads[.]csv.ts"),
      route("export/opt-outs.csv", "routes/admin/export-opt-outs[.]csv.ts"),
      route("dashboard", "routes/admin/dashboard.tsx"),
      route("export/site-events.csv", "routes/admin/export-site-events[.]csv.ts"),
      route("conversions", "routes/admin/conversions.tsx"),
      route("conversions/download", "routes/admin/conversions-download.ts"),
      route("conversions/downloads/:id", "routes/admin/conversions-past-download.ts"),
    ]),
  ]),
] satisfies RouteConfig;

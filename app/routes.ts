import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

import { signedLinkPages, sitePages } from "./content/site-pages.ts";

export default [
  // Every public page, from the site's one list of pages.
  ...sitePages.map(({ path, route: module }) => (path === "/" ? index(module) : route(path, module))),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  // The ad platforms' scheduled fetches of their conversions files, with a password of their own.
  route("conversions/scheduled/:file", "routes/conversions-scheduled.ts"),
  // Pages opened by a signed link: untracked, and logged by route (the list says why).
  ...signedLinkPages.map(({ prefix, route: module }) => route(`${prefix.slice(1)}:token`, module)),
  // The operator console: sign-in and sign-out outside its layout, every other page inside it.
  ...prefix("admin", [
    route("login", "routes/admin/login.tsx"),
    route("setup", "routes/admin/setup.tsx"),
    route("logout", "routes/admin/logout.tsx"),
    route("manifest.webmanifest", "routes/admin/manifest[.]webmanifest.ts"),
    route("sw.js", "routes/admin/sw[.]js.ts"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/inbox.tsx"),
      route("leads/:id", "routes/admin/lead.tsx"),
      route("opt-outs", "routes/admin/opt-outs.tsx"),
      route("outbox", "routes/admin/outbox.tsx"),
      route("partners", "routes/admin/partners.tsx"),
      route("partners/ledger.csv", "routes/admin/partners-ledger[.]csv.ts"),
      route("partners/:id", "routes/admin/partner.tsx"),
      route("partners/:id/statement-preview", "routes/admin/partner-statement-preview.tsx"),
      route("returns", "routes/admin/returns.tsx"),
      route("api-keys", "routes/admin/api-keys.tsx"),
      route("partners/:id/statements/:statementId", "routes/admin/partner-statement[.]csv.ts"),
      route("alerts/devices", "routes/admin/alerts-devices.ts"),
      route("export/leads.csv", "routes/admin/export-leads[.]csv.ts"),
      route("export/opt-outs.csv", "routes/admin/export-opt-outs[.]csv.ts"),
      route("dashboard", "routes/admin/dashboard.tsx"),
      route("export/site-events.csv", "routes/admin/export-site-events[.]csv.ts"),
      route("account", "routes/admin/account.tsx"),
      route("calls", "routes/admin/calls.tsx"),
      route("texts", "routes/admin/texts.tsx"),
      route("texts/:number", "routes/admin/text-thread.tsx"),
      route("calls/:id/recording", "routes/admin/call-recording.ts"),
      route("export/calls.csv", "routes/admin/export-calls[.]csv.ts"),
      route("conversions", "routes/admin/conversions.tsx"),
      route("conversions/download", "routes/admin/conversions-download.ts"),
      route("conversions/downloads/:id", "routes/admin/conversions-past-download.ts"),
      route("conversions/scheduled", "routes/admin/conversions-scheduled.tsx"),
      route("integrations", "routes/admin/integrations.tsx"),
    ]),
  ]),
] satisfies RouteConfig;

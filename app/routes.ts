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
  // The operator console, one folder per feature as the server's modules are: sign-in and sign-out outside its
  // layout, every other page inside it.
  ...prefix("admin", [
    route("login", "routes/admin/account/login.tsx"),
    route("setup", "routes/admin/account/setup.tsx"),
    route("logout", "routes/admin/account/logout.tsx"),
    route("manifest.webmanifest", "routes/admin/manifest[.]webmanifest.ts"),
    route("sw.js", "routes/admin/sw[.]js.ts"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/leads/inbox.tsx"),
      route("leads/:id", "routes/admin/leads/lead.tsx"),
      route("opt-outs", "routes/admin/leads/opt-outs.tsx"),
      route("export/leads.csv", "routes/admin/leads/export-leads[.]csv.ts"),
      route("export/opt-outs.csv", "routes/admin/leads/export-opt-outs[.]csv.ts"),
      route("calls", "routes/admin/calls/calls.tsx"),
      route("calls/:id/recording", "routes/admin/calls/call-recording.ts"),
      route("export/calls.csv", "routes/admin/calls/export-calls[.]csv.ts"),
      route("texts", "routes/admin/texts/texts.tsx"),
      route("texts/:number", "routes/admin/texts/text-thread.tsx"),
      route("partners", "routes/admin/partners/partners.tsx"),
      route("partners/ledger.csv", "routes/admin/partners/partners-ledger[.]csv.ts"),
      route("partners/:id", "routes/admin/partners/partner.tsx"),
      route("partners/:id/statement-preview", "routes/admin/partners/partner-statement-preview.tsx"),
      route("partners/:id/statements/:statementId", "routes/admin/partners/partner-statement[.]csv.ts"),
      route("returns", "routes/admin/partners/returns.tsx"),
      route("dashboard", "routes/admin/analytics/dashboard.tsx"),
      route("export/site-events.csv", "routes/admin/analytics/export-site-events[.]csv.ts"),
      route("conversions", "routes/admin/conversions/conversions.tsx"),
      route("conversions/download", "routes/admin/conversions/conversions-download.ts"),
      route("conversions/downloads/:id", "routes/admin/conversions/conversions-past-download.ts"),
      route("conversions/scheduled", "routes/admin/conversions/conversions-scheduled.tsx"),
      route("integrations", "routes/admin/integrations/integrations.tsx"),
      route("api-keys", "routes/admin/integrations/api-keys.tsx"),
      route("alerts/devices", "routes/admin/alerts/alerts-devices.ts"),
      route("outbox", "routes/admin/outbox/outbox.tsx"),
      route("backups/:file", "routes/admin/outbox/backup-download.ts"),
      route("account", "routes/admin/account/account.tsx"),
    ]),
  ]),
] satisfies RouteConfig;

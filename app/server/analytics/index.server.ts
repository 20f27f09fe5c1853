/** First-party counts of page views and call taps, and the dashboard's queries over them. */
export { dailyAggregatesCsv, dashboardData, rangeDays, type DayFigures } from "./dashboard.server.ts";
export { parseDashboardRange } from "./dashboard-range.server.ts";
export { purgeExpiredCounts } from "./retention.server.ts";
export { createSiteEventCounter, type SiteEventCounter } from "./site-event-counter.server.ts";
export { parseSiteEvent, SITE_EVENT_BODY_LIMIT_BYTES } from "./site-event.server.ts";
export { type SourceCounts, countsBySourceAndCampaign } from "./source-counts.server.ts";

/** First-party counts of page views and call taps, and the dashboard's queries over them. */
export { dailyAggregates, dashboardData, type DayFigures } from "./dashboard.server.ts";
export { parseDashboardRange } from "./dashboard-range.server.ts";
export { purgeExpiredCounts } from "./retention.server.ts";
export { createSiteEventCounter, type SiteEventCounter } from "./site-event-counter.server.ts";
export { siteEventsEndpoint } from "./site-events-endpoint.server.ts";

/**
 * The site's own counting under load, and the dashboard on a year of counts (docs/decisions/070).
 *
 * 1. Dashboard: a year of daily aggregates for 20 pages at 10,000 views a day (each page's views and calls split
 *    over 5 sources/campaigns and 3 placements: about 146,000 rows), then the dashboard's queries for 7, 30 and
 *    90 days, median of 5 runs each, on PGlite and on PostgreSQL.
 * 2. Beacons beside leads, on PostgreSQL: 1,000 beacon events/s and 200 leads/s at once for 10 s, through the real
 *    server; the lead p99 must stay under 50 ms.
 *
 *   node --import tsx scripts/bench-attribution.ts      (needs `npx react-router build` first)
 */
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { startServer } from "../server.ts";
import { openDatabase, type OpenDatabase } from "../app/server/db.server.ts";
import { siteEventCounts } from "../app/server/db-schema.server.ts";
import { dashboardData } from "../app/server/analytics/dashboard.server.ts";
import { startPostgres, startSmtpPeer, testEnv, validContact } from "../tests/integration/support.ts";

const SECONDS = 10;
const BROWSER =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";

async function seedYear(database: OpenDatabase) {
  const t = siteEventCounts;
  // 20 pages × 365 days × (5 campaign views rows + 5 × 3 placement call rows); 10,000 views per day in all.
  await database.db.execute(sql`
    INSERT INTO ${t} (${sql.identifier(t.day.name)}, ${sql.identifier(t.path.name)}, ${sql.identifier(t.kind.name)},
      ${sql.identifier(t.placement.name)}, ${sql.identifier(t.source.name)}, ${sql.identifier(t.campaign.name)},
      ${sql.identifier(t.count.name)})
    SELECT (current_date - d)::date, '/page-' || p, k.kind, k.placement, 'source-' || s, 'campaign-' || s,
      CASE WHEN k.kind = 'view' THEN 100 ELSE 2 END
    FROM generate_series(0, 364) d, generate_series(1, 20) p, generate_series(1, 5) s,
      (VALUES ('view', ''), ('call', 'hero'), ('call', 'header'), ('call', 'sticky_bottom_button')) AS k(kind, placement)`);
}

async function timeDashboard(name: string, database: OpenDatabase) {
  await seedYear(database);
  const rows = await database.db.$count(siteEventCounts);
  for (const range of [7, 30, 90] as const) {
    await dashboardData(database.db, range); // warm-up
    const times: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      await dashboardData(database.db, range);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `dashboard ${name}, ${rows} rows, ${range} days: median ${times[2]!.toFixed(1)} ms, max ${times[4]!.toFixed(1)} ms`,
    );
  }
}

interface Result {
  latency: { p50: number; p99: number };
  "2xx": number;
  non2xx: number;
  errors: number;
}

function load(options: Record<string, unknown>): Promise<Result> {
  return new Promise((resolve, reject) =>
    autocannon({ connections: 20, workers: 1, duration: SECONDS, ...options }, (error: Error | null, result: Result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

const postgres = await startPostgres();
const smtp = await startSmtpPeer();
try {
  if (process.env.BENCH_SKIP_DASHBOARD !== "1") {
    const pglite = await openDatabase({ pgliteDataDir: "memory://" });
    await timeDashboard("PGlite", pglite);
    await pglite.close();
    const pg = await openDatabase({ databaseUrl: await postgres.createDatabase(), pgliteDataDir: "unused" });
    await timeDashboard("PostgreSQL", pg);
    await pg.close();
  }

  const running = await startServer(
    testEnv({
      DATABASE_URL: await postgres.createDatabase(),
      SMTP_URL: smtp.url,
      OUTBOX_POLL_MS: "1000",
      FORM_RATE_LIMIT_PER_HOUR: "10000000",
      POST_RATE_LIMIT_PER_MINUTE: "10000000",
      ANALYTICS_RATE_LIMIT_PER_MINUTE: "10000000",
    }),
  );
  try {
    const leads = {
      url: `${running.url}/functions/v1/send-contact-email`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(validContact),
    };
    const beacons = {
      url: `${running.url}/api/events`,
      method: "POST",
      headers: { "content-type": "text/plain", "user-agent": BROWSER },
      body: JSON.stringify({
        kind: "call",
        path: "/",
        placement: "hero",
        source: "google",
        medium: "cpc",
        campaign: "spring",
      }),
    };
    await load({ ...leads, amount: 200 }); // warm-up
    // Leads alone first: the baseline the run with beacons is compared with.
    const alone = await load({ ...leads, overallRate: 200 });
    console.log(
      `leads at 200/s alone (PostgreSQL, ${SECONDS} s): p50 ${alone.latency.p50} ms, p99 ${alone.latency.p99} ms`,
    );
    const [leadResult, beaconResult] = await Promise.all([
      load({ ...leads, overallRate: 200 }),
      load({ ...beacons, overallRate: 1000 }),
    ]);
    await running.services.siteEvents.flush();
    const counted = await running.services.db
      .select({ total: sql<number>`sum(${siteEventCounts.count})::int` })
      .from(siteEventCounts);
    for (const [name, result] of [
      ["leads at 200/s", leadResult],
      ["beacons at 1,000/s", beaconResult],
    ] as const) {
      console.log(
        `${name} (PostgreSQL, together for ${SECONDS} s): ${result["2xx"]} answered 2xx, ${result.non2xx} other, ${result.errors} errors; p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
      );
    }
    console.log(`events counted in the aggregates: ${counted[0]?.total}`);
  } finally {
    await running.close();
  }
} finally {
  await smtp.stop();
  await postgres.stop();
}

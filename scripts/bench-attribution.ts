/**
 * The site's own counting under load, and the dashboard on a year of counts (docs/decisions/070).
 *
 * 1. Dashboard: a year of daily aggregates for 20 pages at 10,000 views a day (each page's views and calls split
 *    over 5 sources/campaigns and 3 placements: about 146,000 rows), a year of leads (20 a day, one in five
 *    booked) and of monthly spend for each campaign, then the dashboard's queries (its figures, and cost and
 *    funnel per source and campaign) for 7, 30 and 90 days, median of 5 runs each, on PGlite and on PostgreSQL.
 * 2. Beacons beside leads, on PostgreSQL: the real server in its own process, 200 leads/s alone for 10 s, then
 *    200 leads/s and 1,000 beacon events/s together for 10 s, three times; each a steady, evenly spaced load
 *    (scripts/lib/steady-load.ts). The lead p99 must stay under 50 ms.
 *
 *   node --import tsx scripts/bench-attribution.ts      (needs `npm run build` first)
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { parseEnv } from "../app/config/env.server.ts";
import { executeRows, openDatabase, type OpenDatabase } from "../app/server/db/index.server.ts";
import { dashboardData, rangeDays } from "../app/server/analytics/index.server.ts";
import { campaignReport } from "../app/server/conversions/index.server.ts";
import { startServerProcess } from "../tooling/server-process.ts";
import { freePort, startPostgres, startSmtpPeer, validContact } from "../tooling/local-services.ts";
import { steadyLoadInWorker, type SteadyLoadResult } from "./lib/steady-load.ts";

const SECONDS = 10;
const LEADS_PER_SECOND = 200;
const BEACONS_PER_SECOND = 1000;
/** Each run is leads alone, then leads and beacons together. */
const RUNS = 3;
/** Both loads together first, untimed: until the JIT has compiled both paths, a server does more work per request. */
const WARM_UP_SECONDS = 5;
const BROWSER =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";

/** CPU time a process has used, in seconds, from Linux's /proc (its clock ticks are 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .slice(11, 13)
    .map(Number);
  return (utime! + stime!) / 100;
}

async function seedYear(database: OpenDatabase) {
  // 20 pages × 365 days × (5 campaign views rows + 5 × 3 placement call rows); 10,000 views per day in all,
  // written straight into the daily aggregates as a year of counting would have left them.
  await database.db.execute(sql`
    INSERT INTO site_event_counts (day, path, kind, placement, source, campaign, count)
    SELECT (current_date - d)::date, '/page-' || p, k.kind, k.placement, 'source-' || s, 'campaign-' || s,
      CASE WHEN k.kind = 'view' THEN 100 ELSE 2 END
    FROM generate_series(0, 364) d, generate_series(1, 20) p, generate_series(1, 5) s,
      (VALUES ('view', ''), ('call', 'hero'), ('call', 'header'), ('call', 'sticky_bottom_button')) AS k(kind, placement)`);
  // 20 leads a day over the same campaigns, one in five booked a day after it arrived.
  await database.db.execute(sql`
    INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service, message,
      consent_text, channel, status, utm_source, utm_campaign, gclid)
    SELECT gen_random_uuid(), now() - make_interval(days => d, mins => n * 37), 'Ann', 'Lee', 'ann@example.com',
      '555-123-4567', 'Leak', 'Help', 'By submitting…', 'form', CASE WHEN n % 5 = 0 THEN 'Booked' ELSE 'New' END,
      'source-' || (n % 5 + 1), 'campaign-' || (n % 5 + 1), 'gclid-' || d || '-' || n
    FROM generate_series(0, 364) d, generate_series(1, 20) n`);
  await database.db.execute(sql`
    INSERT INTO lead_changes (contact_request_id, changed_at, changed_by, status_from, status_to)
    SELECT id, received_at + interval '1 day', 'ops@example.com', 'New', 'Booked' FROM contact_requests
    WHERE status = 'Booked'`);
  // Each campaign's spend for the last 13 months.
  await database.db.execute(sql`
    INSERT INTO ad_spend (month, source, campaign, amount_cents)
    SELECT (date_trunc('month', current_date) - make_interval(months => m))::date, 'source-' || s, 'campaign-' || s,
      150000 + s * 10000
    FROM generate_series(0, 12) m, generate_series(1, 5) s`);
}

/** What the dashboard's loader reads: its figures, and cost and funnel per source and campaign, at once. */
function dashboardLoader(database: OpenDatabase, range: 7 | 30 | 90) {
  const today = new Date();
  const { OPERATOR_TIME_ZONE: timeZone } = parseEnv(process.env);
  const reading = dashboardData(database.db, range, timeZone, today);
  return Promise.all([
    reading,
    campaignReport(
      database.db,
      rangeDays(range, timeZone, today),
      timeZone,
      undefined,
      reading.then((figures) => figures.bySource.top),
    ),
  ]);
}

async function timeDashboard(name: string, database: OpenDatabase) {
  await seedYear(database);
  const [counted] = await executeRows<{ rows: number; leads: number }>(
    database.db,
    sql`SELECT (SELECT count(*) FROM site_event_counts)::int AS rows, (SELECT count(*) FROM contact_requests)::int AS leads`,
  );
  const { rows, leads } = counted!;
  for (const range of [7, 30, 90] as const) {
    await dashboardLoader(database, range); // warm-up
    const times: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      await dashboardLoader(database, range);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `dashboard ${name}, ${rows} rows, ${leads} leads, spend, ${range} days: median ${times[2]!.toFixed(1)} ms, max ${times[4]!.toFixed(1)} ms`,
    );
  }
}

const postgres = await startPostgres();
const smtp = await startSmtpPeer();
try {
  if (process.env.BENCH_SKIP_DASHBOARD !== "1") {
    const pglite = await openDatabase({ pgliteDataDir: "memory://" });
    await timeDashboard("PGlite", pglite);
    await pglite.close();
    const postgresDatabase = await openDatabase({
      databaseUrl: await postgres.createDatabase(),
      pgliteDataDir: "unused",
    });
    await timeDashboard("PostgreSQL", postgresDatabase);
    await postgresDatabase.close();
  }

  // The server in a process of its own, as `npm start` runs it: the SMTP peer and the load generators stay out of
  // its event loop. Behind a trusted proxy, each lead comes from an address of its own, as visitors' do.
  const databaseUrl = await postgres.createDatabase();
  let beaconsSent = 0;
  const server = await startServerProcess({
    PORT: String(await freePort()),
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtp.url,
    TRUST_PROXY: "1",
    OUTBOX_POLL_MS: "1000",
    FORM_RATE_LIMIT_PER_HOUR: "10000000",
    POST_RATE_LIMIT_PER_MINUTE: "10000000",
    ANALYTICS_RATE_LIMIT_PER_MINUTE: "10000000",
  });
  try {
    const leads = {
      url: `${server.url}/functions/v1/send-contact-email`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(validContact),
      rate: LEADS_PER_SECOND,
      seconds: SECONDS,
      sockets: 64,
      distinctClients: true,
    };
    const beacons = {
      url: `${server.url}/api/events`,
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
      rate: BEACONS_PER_SECOND,
      seconds: SECONDS,
      sockets: 64,
    };
    const report = (name: string, result: SteadyLoadResult) =>
      console.log(
        `${name}: ${result.sent} sent at ${result.achievedRate}/s, answers ${JSON.stringify(result.statuses)}; p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms`,
      );
    // The server's CPU time over a phase, as a share of one core: what the beacons cost it, beside the leads.
    const serverCpu = async <T>(phase: () => Promise<T>): Promise<[T, string]> => {
      const before = cpuSeconds(server.child.pid!);
      const result = await phase();
      return [result, `${Math.round(((cpuSeconds(server.child.pid!) - before) / SECONDS) * 100)}% of a core`];
    };
    const warmUp = await Promise.all([
      steadyLoadInWorker({ ...leads, seconds: WARM_UP_SECONDS }),
      steadyLoadInWorker({ ...beacons, seconds: WARM_UP_SECONDS }),
    ]);
    beaconsSent = warmUp[1].sent;
    for (let run = 1; run <= RUNS; run += 1) {
      // Leads alone first: the baseline the run with beacons is compared with.
      const [alone, aloneCpu] = await serverCpu(() => steadyLoadInWorker(leads));
      report(`run ${run}: leads at ${LEADS_PER_SECOND}/s alone (server ${aloneCpu})`, alone);
      const [[leadResult, beaconResult], togetherCpu] = await serverCpu(() =>
        Promise.all([steadyLoadInWorker(leads), steadyLoadInWorker(beacons)]),
      );
      report(`run ${run}: leads at ${LEADS_PER_SECOND}/s with beacons (server ${togetherCpu})`, leadResult);
      report(`run ${run}: beacons at ${BEACONS_PER_SECOND}/s with leads`, beaconResult);
      beaconsSent += beaconResult.sent;
    }
  } finally {
    // A stopped server has written every count it gathered.
    await server.kill("SIGTERM");
  }
  const counted = new pg.Client({ connectionString: databaseUrl });
  await counted.connect();
  const [total] = (await counted.query<{ total: number }>("SELECT sum(count)::int AS total FROM site_event_counts"))
    .rows;
  await counted.end();
  console.log(`events counted in the aggregates: ${total?.total} (sent, with the warm-up: ${beaconsSent})`);
  console.log(`emails the SMTP peer took: ${smtp.received.length}`);
} finally {
  await smtp.stop();
  await postgres.stop();
}

/**
 * The routing decision of a call: the time of the voice webhook that picks the partner to dial (the partners the
 * partners module finds for the ZIP and service, who is free and whose turn it is, the offer stored), with 1,000
 * partners serving 20,000 ZIP codes (about 10 partners a ZIP), while leads arrive at 100 a second. The real server
 * (the built app), signed webhooks as Twilio sends them, on embedded PGlite on disk (as `npm start` runs it) and on
 * an embedded PostgreSQL server. Needs `npm run build` first.
 *
 * Calls arrive as callers dial: at random moments (a Poisson process), BENCH_CALLS_PER_SECOND on average (5, that
 * is 18,000 an hour, far above what 1,000 partners take), each sent when it arrives whether or not the ones before
 * it were answered, and timed from then to its TwiML. A fixed number of calls kept in flight back to back (a closed
 * loop, BENCH_CALLS_AT_ONCE) instead sends calls as fast as the server answers them: every call then waits behind
 * the others by construction (Little's law: the time is the number in flight over the rate), which measures the
 * server's most calls a second, not the decision a caller waits for; it is kept for that.
 *
 *   npm run bench:calls                  both databases
 *   npm run bench:calls -- disk          only this one (disk, postgres)
 *   BENCH_CALLS=600 by default; BENCH_CALLS_PER_SECOND=5 by default, or BENCH_CALLS_AT_ONCE=10 for the closed loop
 */
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../app/server/start-server.server.ts";
import { startPostgres, startSmtpPeer, testEnv, validContact } from "../tooling/local-services.ts";
import { randomUUID } from "node:crypto";
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 600);
const CALLS_PER_SECOND = Number(process.env.BENCH_CALLS_PER_SECOND ?? 5);
const AT_ONCE = process.env.BENCH_CALLS_AT_ONCE ? Number(process.env.BENCH_CALLS_AT_ONCE) : undefined;
const PARTNERS = 1_000;
const ZIP_CODES = 20_000;
/** Each partner serves this many ZIP codes, spread so that each ZIP has PARTNERS × ZIPS_EACH / ZIP_CODES partners. */
const ZIPS_EACH = 200;
const LEADS_PER_SECOND = 100;
const SITE_URL = "https://plumbline.example";
const SITE_NUMBER = "+18005550199";

const ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
const AUTH_TOKEN = "bench-auth-token-0123456789abcdef";

/** A webhook as Twilio posts it, signed with the auth token for the public URL. */
function postWebhook(serverUrl: string, path: string, params: Record<string, string>) {
  return fetch(`${serverUrl}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": getExpectedTwilioSignature(AUTH_TOKEN, `${SITE_URL}${path}`, params),
    },
    body: new URLSearchParams(params).toString(),
  });
}

const zipOf = (n: number) => String(10_000 + (n % ZIP_CODES)).padStart(5, "0");

/** Leads at `rate` a second until stopped, from a worker thread (as a remote client, not on the server's loop). */
function leadsBeside(url: string) {
  const instance = autocannon({
    url: `${url}/functions/v1/send-contact-email`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(validContact),
    connections: 10,
    overallRate: LEADS_PER_SECOND,
    duration: 600,
    workers: 1,
  });
  return { stop: () => instance.stop() };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function run(name: string, storage: Record<string, string>, smtpUrl: string) {
  const running = await startServer(
    testEnv({
      ...storage,
      SITE_URL,
      SMTP_URL: smtpUrl,
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      CALL_FORWARD_TO: "+15550100200",
      PHONE_E164: SITE_NUMBER,
      PHONE_DISPLAY: "1-800-555-0199",
      OUTBOX_POLL_MS: "1000",
      FORM_RATE_LIMIT_PER_HOUR: "10000000",
      POST_RATE_LIMIT_PER_MINUTE: "10000000",
    }),
  );
  try {
    // 1,000 partners taking calls 24/7, each serving 200 ZIP codes spread over 20,000, every service.
    await running.services.run(
      "bench_partners",
      `INSERT INTO partners (name, business, phone, email, services, zip_codes, takes_calls, hours, priority, call_fee_minor)
       SELECT 'Partner ' || n, 'Business ' || n, '+1555' || lpad(n::text, 7, '0'), 'p' || n || '@example.com',
         ARRAY['Drain Services'], ARRAY(SELECT lpad((10000 + ((n * ${ZIPS_EACH} + z) % ${ZIP_CODES}))::text, 5, '0')
           FROM generate_series(0, ${ZIPS_EACH - 1}) AS z), true, '24/7', 1 + n % 3, 2500
       FROM generate_series(1, ${PARTNERS}) AS n`,
      [],
    );
    await running.services.run(
      "bench_routing_on",
      `INSERT INTO partner_settings (id, route_calls) VALUES (1, true)
       ON CONFLICT (id) DO UPDATE SET route_calls = true`,
      [],
    );
    const leads = leadsBeside(running.url);
    const times: number[] = [];
    let dialled = 0;
    let failed = 0;
    let next = 0;
    const oneCall = async () => {
      const n = next++;
      const params = {
        AccountSid: ACCOUNT_SID,
        CallSid: `CA${randomUUID().replaceAll("-", "")}`,
        From: `+1555${String(n).padStart(7, "0")}`,
        To: SITE_NUMBER,
        CallStatus: "ringing",
        FromZip: zipOf(n * 7919),
      };
      const started = performance.now();
      const response = await postWebhook(running.url, "/api/calls/voice", params);
      const twiml = await response.text();
      times.push(performance.now() - started);
      if (response.status !== 200) failed++;
      if (twiml.includes("/api/calls/whisper")) dialled++;
      // The caller hangs up: the partner is free again.
      await postWebhook(running.url, "/api/calls/status", { ...params, CallStatus: "completed" });
    };
    // Warm-up, then the measured calls.
    for (let i = 0; i < 20; i++) await oneCall();
    times.length = 0;
    dialled = 0;
    const end = next + CALLS;
    const leadsStored = async () =>
      (
        await running.services.run<{ value: number }>(
          "bench_leads",
          "SELECT count(*)::int AS value FROM contact_requests",
          [],
        )
      )[0]!.value;
    const leadsBefore = await leadsStored();
    const started = performance.now();
    if (AT_ONCE) {
      const loops = Array.from({ length: AT_ONCE }, async () => {
        while (next < end) await oneCall();
      });
      await Promise.all(loops);
    } else {
      // Each call at its own moment: exponential gaps between arrivals, CALLS_PER_SECOND on average.
      const arriving: Promise<void>[] = [];
      let at = started;
      while (next < end) {
        at += (-Math.log(1 - Math.random()) * 1000) / CALLS_PER_SECOND;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
        arriving.push(oneCall());
      }
      await Promise.all(arriving);
    }
    const seconds = (performance.now() - started) / 1000;
    leads.stop();
    const sorted = [...times].sort((a, b) => a - b);
    const stored = (await leadsStored()) - leadsBefore;
    console.log(
      `${name.padEnd(11)} ${sorted.length} calls (${AT_ONCE ? `${AT_ONCE} at once` : `${CALLS_PER_SECOND}/s at random`}, ` +
        `${(sorted.length / seconds).toFixed(1)}/s): routing decision p50 ${percentile(sorted, 0.5).toFixed(1)} ms  ` +
        `p99 ${percentile(sorted, 0.99).toFixed(1)} ms  max ${sorted.at(-1)!.toFixed(1)} ms  ` +
        `dialled a partner ${dialled}  failed ${failed}  leads stored meanwhile ${stored} ` +
        `(${(stored / seconds).toFixed(0)}/s)`,
    );
  } finally {
    await running.close();
  }
}

const chosen = process.argv.slice(2);
const wanted = (name: string) => chosen.length === 0 || chosen.includes(name);
const smtp = await startSmtpPeer();
const diskRoot = await mkdtemp(join(tmpdir(), "plumbline-bench-calls-"));
const postgres = wanted("postgres") ? await startPostgres() : undefined;
try {
  console.log(
    `POST /api/calls/voice with ${PARTNERS} partners over ${ZIP_CODES} ZIP codes, beside ${LEADS_PER_SECOND} leads/s:`,
  );
  if (wanted("disk")) await run("PGlite disk", { PGLITE_DATA_DIR: join(diskRoot, "data", "pglite") }, smtp.url);
  if (postgres) await run("PostgreSQL", { DATABASE_URL: await postgres.createDatabase() }, smtp.url);
} finally {
  await postgres?.stop();
  await smtp.stop();
  await rm(diskRoot, { recursive: true, force: true });
}

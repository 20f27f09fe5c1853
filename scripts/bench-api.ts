/**
 * API load run: autocannon on loopback against the real server (the built app, the lead intake, the
 * outbox worker sending to a local SMTP peer), once on embedded PGlite and once on an embedded
 * PostgreSQL server. Bounded by request count and time. Needs `npx react-router build` first.
 *
 * autocannon runs in a worker thread: on the server's own event loop it would delay the server it is
 * timing, as a remote client never does (docs/BENCHMARKS.md).
 *
 * Two loads per database: a steady 500 req/s for 10 s, the rate of the target (500 req/s at p99 < 50 ms on
 * PGlite), then as fast as 20 connections go (the ceiling, and its latency when saturated).
 *
 *   npm run bench:api            BENCH_REQUESTS=6000 BENCH_CONNECTIONS=20 by default
 */
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";
import { count, isNotNull } from "drizzle-orm";
import { startServer } from "../server.ts";
import { contactRequests, emailOutbox } from "../app/server/db-schema.server.ts";
import { startPostgres, startSmtpPeer, testEnv, validContact } from "../tests/integration/support.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MAX_SECONDS = 30;
const TARGET_RATE = 500;
const TARGET_SECONDS = 10;

interface AutocannonResult {
  /** Seconds, to the hundredth. */
  duration: number;
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
}

/** `amount` requests, as fast as the connections go, or at `overallRate` requests per second. */
function load(url: string, amount: number, overallRate?: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}/functions/v1/send-contact-email`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(validContact),
        connections: CONNECTIONS,
        amount,
        ...(overallRate ? { overallRate } : {}),
        workers: 1,
      },
      (error: Error | null, result: AutocannonResult) => (error ? reject(error) : resolve(result)),
    );
    setTimeout(() => instance.stop(), MAX_SECONDS * 1000).unref();
  });
}

async function run(name: string, databaseUrl: string | undefined, smtpUrl: string) {
  const running = await startServer(
    testEnv({
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      OUTBOX_POLL_MS: "1000",
      FORM_RATE_LIMIT_PER_HOUR: "10000000",
      POST_RATE_LIMIT_PER_MINUTE: "10000000",
    }),
  );
  try {
    await load(running.url, 200); // warm-up
    let answered = 200;
    // The steady run goes first, so the saturated run's email backlog doesn't compete with it.
    const loads = [
      { label: `${TARGET_RATE} req/s`, amount: TARGET_RATE * TARGET_SECONDS, rate: TARGET_RATE },
      { label: "saturated", amount: REQUESTS, rate: undefined },
    ];
    for (const { label, amount, rate } of loads) {
      const result = await load(running.url, amount, rate);
      answered += result["2xx"];
      const [stored] = await running.services.db.select({ value: count() }).from(contactRequests);
      // Emails the outbox had sent by the end of the run: the rest is sent after it.
      const [sent] = await running.services.db
        .select({ value: count() })
        .from(emailOutbox)
        .where(isNotNull(emailOutbox.sentAt));
      console.log(
        // Not autocannon's requests.average: that is a mean of whole-second samples, coarse for a run of seconds.
        `${name.padEnd(11)} ${label.padEnd(11)} ${(result["2xx"] / result.duration).toFixed(0).padStart(6)} req/s  ` +
          `p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ` +
          `2xx ${result["2xx"]}  non-2xx ${result.non2xx}  errors ${result.errors}  ` +
          `rows ${stored!.value} of ${answered} answered  emails sent ${sent!.value}`,
      );
    }
  } finally {
    await running.close();
  }
}

const smtp = await startSmtpPeer();
const postgres = await startPostgres();
try {
  console.log(`POST /functions/v1/send-contact-email, ${REQUESTS} requests over ${CONNECTIONS} connections:`);
  await run("PGlite", undefined, smtp.url);
  await run("PostgreSQL", await postgres.createDatabase(), smtp.url);
} finally {
  await postgres.stop();
  await smtp.stop();
}

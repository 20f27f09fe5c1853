/**
 * API load run: autocannon on loopback against the real server (the built app, the lead intake, the
 * outbox worker sending to a local SMTP peer), on embedded PGlite in memory, on embedded PGlite on disk
 * (a fresh folder, as `npm start` runs it) and on an embedded PostgreSQL server. Bounded by request count
 * and time. Needs `npm run build` first.
 *
 * autocannon runs in a worker thread: on the server's own event loop it would delay the server it is
 * timing, as a remote client never does (docs/BENCHMARKS.md).
 *
 * Per database: three runs of a steady 500 req/s for 10 s, the rate of the target (500 req/s at p99 < 50 ms
 * on PGlite on disk), then one run as fast as 20 connections go (the ceiling, and its latency when saturated).
 *
 *   npm run bench:api                     all three databases
 *   npm run bench:api -- disk memory      only these (memory, disk, postgres)
 *   BENCH_REQUESTS=6000 BENCH_CONNECTIONS=20 by default
 */
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../app/server/start-server.server.ts";
import { startPostgres, startSmtpPeer, testEnv, validContact } from "../tooling/local-services.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MAX_SECONDS = 30;
const TARGET_RATE = 500;
const TARGET_SECONDS = 10;
const TARGET_RUNS = 3;

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

async function run(name: string, storage: Record<string, string>, smtpUrl: string) {
  const running = await startServer(
    testEnv({
      ...storage,
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
      ...Array.from({ length: TARGET_RUNS }, () => ({
        label: `${TARGET_RATE} req/s`,
        amount: TARGET_RATE * TARGET_SECONDS,
        rate: TARGET_RATE as number | undefined,
      })),
      { label: "saturated", amount: REQUESTS, rate: undefined },
    ];
    for (const { label, amount, rate } of loads) {
      const result = await load(running.url, amount, rate);
      answered += result["2xx"];
      // What the database holds, read as an operator would with psql: the leads stored, and the emails the
      // outbox had sent by the end of the run (the rest is sent after it).
      const [stored] = await running.services.run<{ value: number }>(
        "bench_stored",
        "SELECT count(*)::int AS value FROM contact_requests",
        [],
      );
      const [sent] = await running.services.run<{ value: number }>(
        "bench_sent",
        "SELECT count(*)::int AS value FROM email_outbox WHERE sent_at IS NOT NULL",
        [],
      );
      console.log(
        // Not autocannon's requests.average: that is a mean of whole-second samples, coarse for a run of seconds.
        `${name.padEnd(15)} ${label.padEnd(11)} ${(result["2xx"] / result.duration).toFixed(0).padStart(6)} req/s  ` +
          `p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ` +
          `2xx ${result["2xx"]}  non-2xx ${result.non2xx}  errors ${result.errors}  ` +
          `rows ${stored!.value} of ${answered} answered  emails sent ${sent!.value}`,
      );
    }
  } finally {
    await running.close();
  }
}

const chosen = process.argv.slice(2);
const wanted = (name: string) => chosen.length === 0 || chosen.includes(name);
const smtp = await startSmtpPeer();
const diskRoot = await mkdtemp(join(tmpdir(), "plumbline-bench-"));
const postgres = wanted("postgres") ? await startPostgres() : undefined;
try {
  console.log(
    `POST /functions/v1/send-contact-email: ${TARGET_RUNS} × ${TARGET_RATE} req/s for ${TARGET_SECONDS} s, ` +
      `then ${REQUESTS} requests over ${CONNECTIONS} connections:`,
  );
  if (wanted("memory")) await run("PGlite memory", { PGLITE_DATA_DIR: "memory://" }, smtp.url);
  // The folder layout `npm start` uses (./data/pglite), in a fresh temporary folder.
  if (wanted("disk")) await run("PGlite disk", { PGLITE_DATA_DIR: join(diskRoot, "data", "pglite") }, smtp.url);
  if (postgres) await run("PostgreSQL", { DATABASE_URL: await postgres.createDatabase() }, smtp.url);
} finally {
  await postgres?.stop();
  await smtp.stop();
  await rm(diskRoot, { recursive: true, force: true });
}

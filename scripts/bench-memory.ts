/**
 * `npm run bench:memory`: the resident memory (VmRSS) of the default server, run as `npm start` runs it (its
 * own process, embedded PGlite on disk in its worker thread, emails written as files), on a fresh data folder:
 *
 * 1. idle after the first start (the folder is created and migrated);
 * 2. idle after a restart on the same folder;
 * 3. during and at the end of the API run: a steady 500 leads/s for 10 s, the lead API's target rate;
 * 4. four 200 MB posts at once to a partner's link (`/r/<anything>`), two declaring their length and two chunked:
 *    the time to each one's 413, and the memory before, at its highest and after.
 *
 * "Idle" is read after the server has answered /readyz and then waited IDLE_SECONDS with nothing to do.
 * The goal: at most 256 MB idle, at most 320 MB during the API run; the large posts answered 413 within 100 ms,
 * leaving the memory within 30 MB of where it was. Needs a build (`npm run build`).
 *
 *   npm run bench:memory
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startServerProcess, type ServerProcess } from "../tooling/server-process.ts";
import { freePort, validContact } from "../tooling/local-services.ts";
import { postUntilAnswered } from "../tooling/large-post.ts";
import { steadyLoadInWorker } from "./lib/steady-load.ts";

const IDLE_SECONDS = 10;
const LEADS_PER_SECOND = 500;
const LOAD_SECONDS = 10;

/** The process's resident set in MB, from Linux's /proc. */
function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

const mb = (value: number) => `${Math.round(value)} MB`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function idleRss(server: ServerProcess): Promise<number> {
  const ready = await fetch(`${server.url}/readyz`);
  if (!ready.ok) throw new Error(`The server is not ready: ${ready.status}`);
  await sleep(IDLE_SECONDS * 1000);
  return rssMb(server.child.pid!);
}

const folder = await mkdtemp(join(tmpdir(), "plumbline-bench-memory-"));
const env = {
  PORT: String(await freePort()),
  PGLITE_DATA_DIR: join(folder, "pglite"),
  OUTBOX_DIR: join(folder, "outbox"),
  // Each lead comes from an address of its own, as visitors' do, so the per-client limits never refuse one.
  TRUST_PROXY: "1",
};
try {
  console.log(`Load average (1, 5, 15 min) at the start: ${load()}`);
  const first = await startServerProcess(env);
  console.log(`idle after the first start (new data folder): ${mb(await idleRss(first))}`);
  await first.kill("SIGTERM");

  const server = await startServerProcess(env);
  try {
    console.log(`idle after a restart on the same folder: ${mb(await idleRss(server))}`);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid!))), 100);
    const result = await steadyLoadInWorker({
      url: `${server.url}/functions/v1/send-contact-email`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(validContact),
      rate: LEADS_PER_SECOND,
      seconds: LOAD_SECONDS,
      sockets: 64,
      distinctClients: true,
    });
    clearInterval(sampler);
    const atEnd = rssMb(server.child.pid!);
    console.log(
      `API run (${LEADS_PER_SECOND} leads/s for ${LOAD_SECONDS} s): highest ${mb(Math.max(peak, atEnd))}, at the end ${mb(atEnd)}` +
        ` (answers ${JSON.stringify(result.statuses)}, p50 ${result.p50} ms, p99 ${result.p99} ms)`,
    );

    await sleep(IDLE_SECONDS * 1000);
    const beforePosts = rssMb(server.child.pid!);
    let postsPeak = beforePosts;
    const postSampler = setInterval(() => (postsPeak = Math.max(postsPeak, rssMb(server.child.pid!))), 20);
    const answers = await Promise.all(
      [true, true, false, false].map((declared) =>
        postUntilAnswered(`${server.url}/r/not-a-token`, { bytes: 200 * 1024 * 1024, declared }),
      ),
    );
    await sleep(2_000);
    clearInterval(postSampler);
    console.log(
      `four 200 MB posts to /r/<anything> at once: ${answers.map((answer) => `${answer.status} in ${Math.round(answer.answeredInMs)} ms`).join(", ")};` +
        ` memory ${mb(beforePosts)} before, ${mb(postsPeak)} at its highest, ${mb(rssMb(server.child.pid!))} after`,
    );
  } finally {
    await server.kill("SIGTERM");
  }
  console.log(`Load average (1, 5, 15 min) at the end: ${load()}`);
} finally {
  await rm(folder, { recursive: true, force: true });
}

/**
 * A steady load: `rate` requests a second, evenly spaced, for `seconds`, each sent when it is due whether or not
 * earlier ones have been answered, as visitors arrive (an open model). Latency is measured from when a request was
 * due, so a server that falls behind is charged for the wait (no coordinated omission).
 *
 * autocannon's `overallRate` is not this: each connection sends its quota for the second back to back at the start
 * of the second, so 200/s over 20 connections arrives as a burst of 200 every second, and it records each latency
 * again for every millisecond past 1 ms (its "expected interval"), which weighs slow answers many times over.
 *
 * Runs in a worker thread (steady-load-worker.ts), so the generator's own timers never wait on another one's.
 */
import { Agent, request } from "node:http";
import { startTypeScriptWorker } from "../../app/server/db/index.server.ts";

export interface SteadyLoadOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  rate: number;
  seconds: number;
  /** Sockets kept open to the server; a request due while all are busy waits, and that wait is counted. */
  sockets: number;
  /** A distinct client address per request, in X-Forwarded-For (for a server behind a trusted proxy). */
  distinctClients?: boolean;
}

export interface SteadyLoadResult {
  sent: number;
  /** Answers by status code; "error" for a request that got none. */
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  /** Requests a second actually sent, from the first to the last. */
  achievedRate: number;
}

/** A documentation-range address (198.18.0.0/15, for benchmarks) for the n-th client. */
const clientAddress = (n: number) => `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;

export async function steadyLoad(options: SteadyLoadOptions): Promise<SteadyLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.sockets });
  const total = Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const answered: Promise<void>[] = [];
  const started = performance.now();
  let sent = 0;

  const send = (index: number, dueAt: number) =>
    new Promise<void>((resolve) => {
      const done = (status: string) => {
        latencies.push(performance.now() - dueAt);
        statuses[status] = (statuses[status] ?? 0) + 1;
        resolve();
      };
      const headers = {
        ...options.headers,
        "content-length": String(Buffer.byteLength(options.body)),
        ...(options.distinctClients ? { "x-forwarded-for": clientAddress(index) } : {}),
      };
      const outgoing = request(options.url, { method: options.method, headers, agent }, (response) => {
        response.resume();
        response.on("end", () => done(String(response.statusCode)));
        response.on("error", () => done("error"));
      });
      outgoing.on("error", () => done("error"));
      outgoing.end(options.body);
    });

  while (sent < total) {
    const now = performance.now();
    // Every request due by now goes out now: a late timer never thins the load.
    while (sent < total && started + sent * intervalMs <= now) {
      answered.push(send(sent, started + sent * intervalMs));
      sent += 1;
    }
    if (sent < total) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + sent * intervalMs - performance.now())));
    }
  }
  const lastSentAt = performance.now();
  await Promise.all(answered);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]!);
  return {
    sent,
    statuses,
    p50: at(0.5),
    p99: at(0.99),
    max: Math.round(latencies[latencies.length - 1]!),
    achievedRate: Math.round((sent - 1) / ((lastSentAt - started) / 1000)),
  };
}

/** steadyLoad in a worker thread of its own: several loads at once never delay each other's sends. */
export function steadyLoadInWorker(options: SteadyLoadOptions): Promise<SteadyLoadResult> {
  const worker = startTypeScriptWorker(new URL("./steady-load-worker.ts", import.meta.url), { workerData: options });
  return new Promise((resolve, reject) => {
    worker.once("message", (result: SteadyLoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

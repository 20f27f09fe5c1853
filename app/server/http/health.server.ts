import type { Request, Response } from "express";

// A readiness probe must answer before the orchestrator's own timeout (often 1-5 s).
const READY_TIMEOUT_MS = 2_000;

/** GET /healthz: the process is up and serving. It touches nothing else, so it never fails for a slow database. */
export function healthz(_req: Request, res: Response): void {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
}

/** What the outbox reports of email still to send (counts only, no personal data). */
interface OutboxBacklog {
  backlog: number;
  oldestUnsentSeconds: number;
  failed: number;
}

/**
 * GET /readyz: the database answers. Reports the email backlog (outbox rows still to send), the age in
 * seconds of the oldest one and the number given up for good, so a monitor can alert on mail that is stuck;
 * 503 when the database does not answer within READY_TIMEOUT_MS.
 */
export function readyz(outboxBacklog: () => Promise<OutboxBacklog>) {
  return async (_req: Request, res: Response): Promise<void> => {
    res.set("Cache-Control", "no-store");
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), READY_TIMEOUT_MS);
      });
      const outbox = await Promise.race([outboxBacklog(), timeout]);
      res.json({ status: "ready", database: "ok", outbox });
    } catch {
      res.status(503).json({ status: "unavailable", database: "unreachable" });
    } finally {
      clearTimeout(timer);
    }
  };
}

import { isNull, sql } from "drizzle-orm";
import type { Request, Response } from "express";
import type { Database } from "../db/db.server.ts";
import { emailOutbox } from "../outbox/schema.server.ts";

// A readiness probe must answer before the orchestrator's own timeout (often 1-5 s).
const READY_TIMEOUT_MS = 2_000;

/** GET /healthz: the process is up and serving. It touches nothing else, so it never fails for a slow database. */
export function healthz(_req: Request, res: Response): void {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
}

/**
 * GET /readyz: the database answers. Reports the email backlog (outbox rows still to send), the age in
 * seconds of the oldest one and the number given up for good, so a monitor can alert on mail that is stuck; 503 when the database does
 * not answer within READY_TIMEOUT_MS. Counts only, no personal data.
 */
export function readyz(db: Database) {
  return async (_req: Request, res: Response): Promise<void> => {
    res.set("Cache-Control", "no-store");
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = db
        .select({
          // Emails given up for good (failed) are not waiting: they are counted apart.
          backlog: sql<number>`count(*) FILTER (WHERE ${emailOutbox.failedAt} IS NULL)`,
          failed: sql<number>`count(*) FILTER (WHERE ${emailOutbox.failedAt} IS NOT NULL)`,
          oldest: sql<string | null>`min(${emailOutbox.createdAt}) FILTER (WHERE ${emailOutbox.failedAt} IS NULL)`,
          now: sql<string>`now()`,
        })
        .from(emailOutbox)
        .where(isNull(emailOutbox.sentAt));
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), READY_TIMEOUT_MS);
      });
      const [row] = await Promise.race([query, timeout]);
      const oldestSeconds = row?.oldest
        ? Math.max(0, Math.floor((new Date(row.now).getTime() - new Date(row.oldest).getTime()) / 1000))
        : 0;
      res.json({
        status: "ready",
        database: "ok",
        outbox: {
          backlog: Number(row?.backlog ?? 0),
          oldestUnsentSeconds: oldestSeconds,
          failed: Number(row?.failed ?? 0),
        },
      });
    } catch {
      res.status(503).json({ status: "unavailable", database: "unreachable" });
    } finally {
      clearTimeout(timer);
    }
  };
}

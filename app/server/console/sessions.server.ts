import { createHmac, randomBytes } from "node:crypto";
import { and, eq, gt, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { operators, operatorSessions } from "./schema.server.ts";
import { SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS } from "./session-cookie.server.ts";

/** The signed-in operator, as route modules see it. */
export interface Operator {
  id: string;
  email: string;
  /** Whether two-step sign-in is on for this operator. */
  twoStep: boolean;
  /** This session's key (the HMAC of its id, as stored): what binds a two-step setup to the session. */
  sessionKey: string;
}

export interface SessionStore {
  /** Starts a session and returns its id, for the cookie only: the database keeps its HMAC. */
  start(operatorId: string): Promise<string>;
  /** The operator of a live session, or null; marks the session as seen (at most once a minute). */
  resolve(sessionId: string): Promise<Operator | null>;
  end(sessionId: string): Promise<void>;
  /** Ends every session of the operator but the one with `keepSessionKey`. */
  endOthers(operatorId: string, keepSessionKey: string): Promise<void>;
  /** Deletes sessions that have expired, which would otherwise stay forever. */
  prune(): Promise<void>;
}

// Writing last-seen on every request would turn each console page view into a write.
const TOUCH_AFTER_SECONDS = 60;
const secondsAgo = (seconds: number) => sql`now() - ${seconds} * interval '1 second'`;

export function createSessionStore(db: Database, secret: string): SessionStore {
  const hashOf = (sessionId: string) => createHmac("sha256", secret).update(sessionId).digest("hex");
  const live = and(
    gt(operatorSessions.lastSeenAt, secondsAgo(SESSION_IDLE_SECONDS)),
    gt(operatorSessions.createdAt, secondsAgo(SESSION_MAX_SECONDS)),
  );
  return {
    async start(operatorId) {
      const sessionId = randomBytes(32).toString("base64url");
      await db.insert(operatorSessions).values({ idHash: hashOf(sessionId), operatorId });
      return sessionId;
    },
    async resolve(sessionId) {
      const idHash = hashOf(sessionId);
      const [found] = await db
        .select({
          id: operators.id,
          email: operators.email,
          twoStep: isNotNull(operators.totpSecret),
          lastSeenAt: operatorSessions.lastSeenAt,
        })
        .from(operatorSessions)
        .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
        .where(and(eq(operatorSessions.idHash, idHash), live));
      if (!found) return null;
      if (Date.now() - found.lastSeenAt.getTime() > TOUCH_AFTER_SECONDS * 1000) {
        await db
          .update(operatorSessions)
          .set({ lastSeenAt: sql`now()` })
          .where(eq(operatorSessions.idHash, idHash));
      }
      return { id: found.id, email: found.email, twoStep: Boolean(found.twoStep), sessionKey: idHash };
    },
    async end(sessionId) {
      await db.delete(operatorSessions).where(eq(operatorSessions.idHash, hashOf(sessionId)));
    },
    async endOthers(operatorId, keepSessionKey) {
      await db
        .delete(operatorSessions)
        .where(and(eq(operatorSessions.operatorId, operatorId), ne(operatorSessions.idHash, keepSessionKey)));
    },
    async prune() {
      await db
        .delete(operatorSessions)
        .where(
          or(
            lt(operatorSessions.lastSeenAt, secondsAgo(SESSION_IDLE_SECONDS)),
            lt(operatorSessions.createdAt, secondsAgo(SESSION_MAX_SECONDS)),
          ),
        );
    },
  };
}

import type { NextFunction, Request, Response } from "express";
import type { Database } from "../db/index.server.ts";
import { isConsolePath } from "./console-paths.server.ts";
import { hasOperator } from "./first-operator.server.ts";
import { sessionIdFromCookies } from "./session-cookie.server.ts";
import type { SessionStore } from "./sessions.server.ts";
import type { Operator } from "./sessions.server.ts";

/**
 * In front of every /admin path (pages, downloads, unknown paths): keeps it out of search engines,
 * resolves the session cookie into `res.locals.operator`, and sends a signed-out request to the sign-in
 * page, which remembers where it was going; before the first operator exists, to the set-up page instead.
 */
export function consoleGate(sessions: SessionStore, db: Database) {
  // Once an operator exists the set-up page is gone for good, so this instance stops asking.
  let operatorSeen = false;
  const firstRun = async () => !(operatorSeen ||= await hasOperator(db));
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isConsolePath(req.path)) return next();
    res.set("X-Robots-Tag", "noindex");
    res.set("Cache-Control", "no-store");
    try {
      const sessionId = sessionIdFromCookies(req.get("cookie"));
      const operator: Operator | null = sessionId ? await sessions.resolve(sessionId) : null;
      res.locals.operator = operator;
      if (operator || /^\/admin\/(?:login|setup)(?:\.data)?\/?$/.test(req.path)) return next();
      // A client-side navigation's data request needs React Router's own redirect format: it gets one
      // from requireOperator in the route's loader or action, which every console route calls.
      if (req.path.endsWith(".data")) return next();
      if (await firstRun()) return res.redirect(303, "/admin/setup");
      res.redirect(303, `/admin/login?next=${encodeURIComponent(req.originalUrl)}`);
    } catch (error) {
      next(error);
    }
  };
}

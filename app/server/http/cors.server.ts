import type { NextFunction, Request, Response } from "express";

const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for the lead endpoint, for the extra origins the operator allowed (ALLOWED_ORIGINS) and no
 * others: a script on such a site may POST JSON, which browsers first check with a preflight. The
 * site's own pages are same-origin and need none of this.
 */
export function leadEndpointCors(allowedOrigins: string[]) {
  const allowed = (origin: string | undefined): origin is string => !!origin && allowedOrigins.includes(origin);
  return {
    /** OPTIONS: 204 with the CORS grant for an allowed origin asking to POST; 403 for any other origin. */
    preflight(req: Request, res: Response): void {
      const origin = req.get("origin");
      res.set({ Allow: "POST, OPTIONS", Vary: "Origin", "Cache-Control": "no-store" });
      if (origin === undefined) {
        res.status(204).end();
        return;
      }
      if (!allowed(origin) || req.get("access-control-request-method") !== "POST") {
        res.status(403).json({ error: "Requests from other sites are not accepted.", fieldErrors: {} });
        return;
      }
      res
        .set({
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": "POST",
          "Access-Control-Allow-Headers": "Content-Type, Idempotency-Key",
          "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
        })
        .status(204)
        .end();
    },
    /** On the POST itself, lets the allowed origin's script read the answer. */
    grant(req: Request, res: Response, next: NextFunction): void {
      const origin = req.get("origin");
      if (allowed(origin)) res.set({ "Access-Control-Allow-Origin": origin, Vary: "Origin" });
      next();
    },
  };
}

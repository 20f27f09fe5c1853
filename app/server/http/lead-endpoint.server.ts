import type { Request, Response } from "express";
import type { LeadIntake } from "../leads/index.server.ts";

/**
 * POST JSON (other methods are refused by methods.server.ts), a contact request or an opt-out (`type: "opt-out"`); answers 200 { ok, id } only once the
 * request and its emails are stored. Served by Express rather than as a React Router resource route:
 * building a Fetch Request and running the router cost about a third of the API's time per request
 * (docs/decisions/051-lead-endpoint-on-express.md). The pages' form actions reach the same intake.
 */
export function leadEndpoint(leads: LeadIntake) {
  return async (req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    const outcome = await leads.handle(
      { header: (name) => req.get(name) ?? null, body: req },
      { clientIp: req.ip ?? "unknown", channel: "api" },
    );
    if (outcome.status !== 200 && outcome.headers) res.set(outcome.headers);
    res.status(outcome.status).json(outcome.body);
  };
}

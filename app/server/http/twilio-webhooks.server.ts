import type { NextFunction, Request, Response } from "express";
import { readRequestBody } from "./request-body.server.ts";
import { log } from "../log.server.ts";
import { isSignedByTwilio } from "../twilio/index.server.ts";

export type TwilioParams = Record<string, string>;
/** A step for a call (or a part of one) that does not exist: 404, and nothing changed. */
export const NO_SUCH_CALL = Symbol("no such call");
/**
 * One webhook's work: TwiML to answer with, "" for no content, null for parameters it cannot take (400), or
 * NO_SUCH_CALL (404).
 */
export type TwilioStep = (params: TwilioParams, query: URLSearchParams) => Promise<string | null | typeof NO_SUCH_CALL>;

/**
 * Twilio's webhooks at `steps`' paths. `signed` answers a request whose X-Twilio-Signature is valid for SITE_URL +
 * path + query (before the POST limit and the origin check, which Twilio's servers must not be subject to); any
 * other request goes on through those, to `refuse`, which answers 403 having changed nothing.
 */
export function twilioWebhooks(steps: Record<string, TwilioStep>, settings: { siteUrl: string; authToken: string }) {
  return {
    paths: Object.keys(steps),
    async signed(req: Request, res: Response, next: NextFunction) {
      const step = steps[req.path];
      if (!step || req.method !== "POST") return next();
      const body = await readRequestBody({ header: (name) => req.get(name) ?? null, body: req });
      if ("status" in body && body.status === 413) return res.status(413).type("text/plain").send(body.error);
      const params = "payload" in body ? (body.payload as TwilioParams) : null;
      const signature = req.get("x-twilio-signature");
      if (
        !params ||
        !isSignedByTwilio(settings.authToken, signature, `${settings.siteUrl}${req.originalUrl}`, params)
      ) {
        // The body is read; the request goes on to the POST limit and the origin check, then to `refuse`.
        return next();
      }
      try {
        const answer = await step(params, new URL(req.originalUrl, settings.siteUrl).searchParams);
        res.set("Cache-Control", "no-store");
        if (answer === null) return res.status(400).type("text/plain").send("Unexpected parameters.");
        if (answer === NO_SUCH_CALL) return res.status(404).type("text/plain").send("No such call.");
        if (answer === "") return res.status(204).end();
        res.type("text/xml").send(answer);
      } catch (error) {
        log.error({ err: error }, `Twilio webhook ${req.path} failed`);
        // Twilio retries a 5xx; the steps are idempotent.
        res.status(503).type("text/plain").send("Try again.");
      }
    },
    refuse(req: Request, res: Response, next: NextFunction) {
      if (!steps[req.path]) return next();
      res.status(403).type("text/plain").send("This request is not signed by Twilio.");
    },
  };
}

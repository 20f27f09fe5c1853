import { createHmac, randomUUID } from "node:crypto";
import type { Request, Response } from "express";
import { z } from "zod";
import { attributionFields, campaignFields, clickIdFields } from "~/lib/site-events.ts";
import { formatLike, type TrackingNumber } from "~/lib/tracking-number.ts";
import type { RunStatement } from "../db/index.server.ts";
import { readRequestBody } from "./request-body.server.ts";
import { takeAttribution } from "../leads/index.server.ts";
import { log } from "../log.server.ts";
import { holdNumber } from "../calls/index.server.ts";
import { clientKey } from "../limits/index.server.ts";

export interface NumberEndpointSettings {
  pool: readonly string[];
  /** The key client addresses are hashed with before a hold keeps them. */
  clientKeySecret: string;
  /** PHONE_DISPLAY: tracking numbers are written in its shape. */
  displayTemplate: string;
}

const requestSchema = z
  .object({
    hold: z.uuid().optional(),
    visit: z.partialRecord(z.enum(attributionFields), z.string().max(200)),
  })
  .strict();

/** A visit from a campaign: its first page carried a utm_* value or an ad click id. */
function fromCampaign(visit: Partial<Record<string, string>>): boolean {
  return [...campaignFields, ...clickIdFields].some((field) => Boolean(visit[field]?.trim()));
}

/**
 * POST { hold?, visit } from the page's inline script: the visit's tracking number, kept for it 30 minutes
 * after this page view ({ hold, e164, display }), or {} when it gets none (no campaign, or no free number).
 * The hold keeps the visit's attribution as the lead form would (no click ids under Global Privacy Control)
 * and nothing else about the visitor but a keyed hash of their network, which bounds one client's holds: no cookie
 * is set, no address or user agent kept.
 */
export function numberEndpoint(run: RunStatement, settings: NumberEndpointSettings) {
  return async (req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    const body = await readRequestBody({ header: (name) => req.get(name) ?? null, body: req });
    if (!("payload" in body)) return res.status(body.status).json({ error: body.error });
    const parsed = requestSchema.safeParse(body.payload);
    if (!parsed.success) return res.status(400).json({ error: "Send { hold, visit } as the page does." });
    const { hold, visit } = parsed.data;
    if (!fromCampaign(visit)) return res.json({});
    const globalPrivacyControl = req.get("sec-gpc")?.trim() === "1";
    const { attribution } = takeAttribution(visit, null, globalPrivacyControl);
    try {
      const outcome = await holdNumber(run, settings.pool, {
        holdId: hold ?? null,
        attribution,
        newHoldId: randomUUID(),
        client: createHmac("sha256", settings.clientKeySecret)
          .update(clientKey(req.ip ?? "unknown"))
          .digest("base64url"),
      });
      if (outcome.kind !== "held") return res.json({});
      const answer: TrackingNumber = {
        hold: outcome.holdId,
        e164: outcome.number,
        display: formatLike(settings.displayTemplate, outcome.number),
      };
      res.json(answer);
    } catch (error) {
      // The page keeps the site's own number.
      log.warn({ err: error }, "tracking number not held");
      res.status(503).json({ error: "No tracking number now." });
    }
  };
}

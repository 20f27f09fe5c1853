import type { Request as ExpressRequest, Response } from "express";
import { data, type RouterContextProvider } from "react-router";
import type { LeadFormResult } from "~/lib/lead-form.ts";
import { IDEMPOTENCY_HEADER, newSubmissionId, type LeadKind } from "~/lib/lead-schemas.ts";
import type { LeadChannel, LeadInput, LeadIntake, LeadOutcome } from "../leads/index.server.ts";
import { clientKey } from "../limits/index.server.ts";
import { readRequestBody, type BodySource } from "./request-body.server.ts";

/**
 * The two ways a lead is posted, each answering the intake's outcome in its own terms: the JSON endpoint
 * (POST LEAD_ENDPOINT, a contact request or an opt-out with `type: "opt-out"`) and the pages' own forms
 * posted without JavaScript. Both read the body the same way (type, size, parsing) before the intake sees it.
 */

function leadInput(
  fields: Record<string, unknown>,
  request: BodySource,
  clientIp: string,
  channel: LeadChannel,
  kind?: LeadKind,
): LeadInput {
  return {
    fields,
    client: clientKey(clientIp),
    channel,
    kind,
    // Browsers send Sec-GPC: 1 with every request when the visitor turned Global Privacy Control on.
    globalPrivacyControl: request.header("sec-gpc")?.trim() === "1",
    referer: request.header("referer"),
    idempotencyKey: request.header(IDEMPOTENCY_HEADER.toLowerCase()),
  };
}

/** The status a rejected submission is answered with, and the headers that go with it. */
function rejection(outcome: Exclude<LeadOutcome, { outcome: "stored" | "repeat" }>): {
  status: number;
  headers: Record<string, string>;
} {
  switch (outcome.outcome) {
    case "invalid":
      return { status: outcome.reason === "submission-id" ? 400 : 422, headers: {} };
    case "refused":
      return { status: 400, headers: {} };
    case "limited":
      return { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } };
    case "unavailable":
      return { status: 503, headers: { "Retry-After": "60" } };
  }
}

/**
 * POST JSON; answers 200 { ok, id } only once the request and its emails are stored. Served by Express
 * rather than as a React Router resource route: building a Fetch Request and running the router cost about
 * a third of the API's time per request (docs/decisions/051-lead-endpoint-on-express.md).
 */
export function leadEndpoint(leads: LeadIntake) {
  return async (req: ExpressRequest, res: Response) => {
    res.set("Cache-Control", "no-store");
    const request: BodySource = { header: (name) => req.get(name) ?? null, body: req };
    const body = await readRequestBody(request);
    if ("status" in body) return void res.status(body.status).json({ error: body.error, fieldErrors: {} });
    const outcome = await leads.submit(leadInput(body.payload, request, req.ip ?? "unknown", "api"));
    if (outcome.outcome === "stored" || outcome.outcome === "repeat") {
      return void res.status(200).json({ ok: true, id: outcome.id });
    }
    const { status, headers } = rejection(outcome);
    const fieldErrors = outcome.outcome === "invalid" ? outcome.fieldErrors : {};
    res.set(headers).status(status).json({ error: outcome.message, fieldErrors });
  };
}

/**
 * A page's own action, used when the form is posted without JavaScript: the same intake as the API, with
 * the answer reduced to what the page shows. After a success the emptied form gets a fresh submission id;
 * after a failure, the one it was sent with, so sending it again cannot store the lead twice.
 */
export async function leadFormAction(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  kind: LeadKind,
) {
  const source: BodySource = { header: (name) => request.headers.get(name), body: request.body };
  const body = await readRequestBody(source);
  if ("status" in body) {
    return data<LeadFormResult>(
      { ok: false, fieldErrors: {}, values: {}, submissionId: newSubmissionId() },
      { status: body.status },
    );
  }
  const outcome = await context.services.leads.submit(leadInput(body.payload, source, context.clientIp, "form", kind));
  if (outcome.outcome === "stored" || outcome.outcome === "repeat") {
    return data<LeadFormResult>({ ok: true, submissionId: newSubmissionId() });
  }
  const { status, headers } = rejection(outcome);
  const kept = outcome.outcome === "refused" ? { values: {} } : outcome;
  return data<LeadFormResult>(
    {
      ok: false,
      fieldErrors: outcome.outcome === "invalid" ? outcome.fieldErrors : {},
      values: kept.values,
      submissionId: ("submissionId" in kept && kept.submissionId) || newSubmissionId(),
    },
    { status, headers },
  );
}

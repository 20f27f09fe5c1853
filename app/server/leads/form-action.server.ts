import { data, type AppLoadContext } from "react-router";
import type { LeadFormResult } from "~/lib/lead-form.ts";
import { newSubmissionId, type LeadKind } from "~/lib/lead-schemas.ts";

/**
 * A page's own action, used when the form is posted without JavaScript: the same intake as the API,
 * with the answer reduced to what the page shows, under the same status code.
 */
export async function leadFormAction(
  { request, context }: { request: Request; context: AppLoadContext },
  kind: LeadKind,
) {
  const outcome = await context.services.leads.handleFetch(request, {
    clientIp: context.clientIp,
    channel: "form",
    kind,
  });
  // After a success the emptied form gets a fresh submission id; after a failure, the one it was sent with,
  // so sending it again cannot store the lead twice.
  if (outcome.status === 200) return data<LeadFormResult>({ ok: true, submissionId: newSubmissionId() });
  return data<LeadFormResult>(
    {
      ok: false,
      fieldErrors: outcome.body.fieldErrors,
      values: outcome.values ?? {},
      submissionId: outcome.submissionId ?? newSubmissionId(),
    },
    { status: outcome.status, headers: outcome.headers },
  );
}

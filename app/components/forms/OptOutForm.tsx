import { FormField } from "~/components/ui/FormField.tsx";
import { Honeypot } from "~/components/ui/Honeypot.tsx";
import { Notice } from "~/components/ui/Notice.tsx";
import { SubmitButton } from "~/components/ui/SubmitButton.tsx";
import { doNotSellPage as copy } from "~/content/lead-forms.ts";
import { useLeadForm, type LeadFormResult } from "~/lib/lead-form.ts";
import { LEAD_LIMITS, validateOptOutRequest } from "~/lib/lead-schemas.ts";

/** The Do Not Sell or Share request: notices for the outcome, with or without scripts. */
export function OptOutForm({ serverResult }: { serverResult: LeadFormResult | undefined }) {
  const form = useLeadForm({
    formId: "opt-out",
    fields: copy.fields,
    validate: (values) => validateOptOutRequest({ ...values, type: "opt-out" }),
    toPayload: ({ name, email, message }) => ({ name, email, message, type: "opt-out" }),
    serverResult,
    onFailure: (error) => console.error("Error submitting opt-out request:", error),
  });

  return (
    <form method="post" noValidate={form.noValidate} onSubmit={form.onSubmit} className="relative space-y-5">
      {form.outcome ? (
        <Notice tone={form.outcome.ok ? "success" : "error"} {...(form.outcome.ok ? copy.success : copy.failure)} />
      ) : null}
      <FormField {...form.field("name")} required autoComplete="name" maxLength={LEAD_LIMITS.optOutName} />
      <FormField {...form.field("email")} required type="email" autoComplete="email" maxLength={LEAD_LIMITS.email} />
      <FormField {...form.field("message")} hint={copy.optional} rows={4} maxLength={LEAD_LIMITS.optOutMessage} />
      <Honeypot formId="opt-out" />
      {form.submissionIdInput ? <input {...form.submissionIdInput} /> : null}
      <SubmitButton pending={form.pending} label={copy.submit} pendingLabel={copy.submitting} />
    </form>
  );
}

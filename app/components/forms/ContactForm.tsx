import { useState } from "react";
import { FormField } from "~/components/ui/FormField.tsx";
import { Honeypot } from "~/components/ui/Honeypot.tsx";
import { Notice } from "~/components/ui/Notice.tsx";
import { SubmitButton } from "~/components/ui/SubmitButton.tsx";
import { prepareToasts, showToast, Toasts } from "~/components/ui/Toasts.tsx";
import { siteConfig } from "~/config/site.ts";
import { contactPage as copy } from "~/content/lead-forms.ts";
import { COUNTED_FORM_ATTRIBUTE } from "~/lib/site-events.ts";
import { useLeadForm, type LeadFormResult } from "~/lib/lead-form.ts";
import { LEAD_LIMITS, validateContactRequest } from "~/lib/lead-schemas.ts";
import { visitAttribution } from "~/lib/visit-attribution.ts";

const TOAST_DURATION_MS = 4_000;

/** The estimate request: six required fields and an optional ZIP code, toasts with scripts, notices rendered by the server without. */
export function ContactForm({ serverResult }: { serverResult: LeadFormResult | undefined }) {
  // The last outcome could not be shown as a toast: sonner failed to download.
  const [toastFailed, setToastFailed] = useState(false);
  const toastOrNotice = (tone: "success" | "error", message: { title: string; text: string }) =>
    void showToast(tone, message.title, message.text).then((shown) => setToastFailed(!shown));
  const form = useLeadForm({
    formId: "contact",
    fields: copy.fields,
    validate: validateContactRequest,
    // How the visitor found the site travels with the request (docs/decisions/070).
    // A blank ZIP code is left out, as the form had none.
    toPayload: ({ zip, ...data }) => ({ ...data, ...(zip ? { zip } : {}), ...visitAttribution() }),
    serverResult,
    onSuccess: () => toastOrNotice("success", copy.success),
    onFailure: (error) => {
      console.error("Error sending message:", error);
      toastOrNotice("error", copy.failure);
    },
  });
  // With scripts, toasts tell the outcome. A page the server rendered after a plain POST shows a
  // notice instead, and so does a page whose toasts could not be loaded, so the visitor always learns it.
  const notice =
    form.outcome && (form.outcome.renderedByServer || toastFailed)
      ? form.outcome.ok
        ? copy.success
        : copy.failure
      : undefined;

  return (
    <>
      <form
        method="post"
        {...{ [COUNTED_FORM_ATTRIBUTE]: "" }}
        noValidate={form.noValidate}
        onFocus={prepareToasts}
        onSubmit={(event) => {
          setToastFailed(false);
          // Also here for a visitor who was already in the form when the scripts started.
          prepareToasts();
          void form.onSubmit(event);
        }}
        className="relative space-y-5"
      >
        {notice ? <Notice tone={form.outcome?.ok ? "success" : "error"} {...notice} /> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            {...form.field("firstName")}
            required
            autoComplete="given-name"
            maxLength={LEAD_LIMITS.personName}
          />
          <FormField
            {...form.field("lastName")}
            required
            autoComplete="family-name"
            maxLength={LEAD_LIMITS.personName}
          />
        </div>
        <FormField {...form.field("email")} required type="email" autoComplete="email" maxLength={LEAD_LIMITS.email} />
        <FormField {...form.field("phone")} required type="tel" autoComplete="tel" maxLength={LEAD_LIMITS.phone} />
        <FormField
          {...form.field("zip")}
          hint={copy.optional}
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={LEAD_LIMITS.zip}
        />
        <FormField {...form.field("service")} required maxLength={LEAD_LIMITS.service} />
        <FormField {...form.field("message")} required rows={4} maxLength={LEAD_LIMITS.message} />
        <Honeypot formId="contact" />
        {form.submissionIdInput ? <input {...form.submissionIdInput} /> : null}
        <SubmitButton pending={form.pending} label={copy.submit} pendingLabel={copy.submitting} />
        <p className="text-xs text-slate-600">{siteConfig.contactConsentText}</p>
      </form>
      <Toasts position="top-center" duration={TOAST_DURATION_MS} richColors closeButton />
    </>
  );
}

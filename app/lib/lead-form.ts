import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  LEAD_ENDPOINT,
  newSubmissionId,
  SUBMISSION_ID_FIELD,
  type FieldErrors,
  type LeadValidation,
} from "./lead-schemas.ts";

/**
 * What a page's own action (JavaScript off) hands back to the page, with the submission id the form
 * sends next: the page renders it into a hidden field.
 */
export type LeadFormResult = { submissionId: string } & (
  { ok: true } | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> }
);

class LeadRequestError extends Error {
  constructor(
    readonly status: number,
    readonly fieldErrors: FieldErrors,
  ) {
    super(`The lead endpoint answered ${status}`);
  }
}

async function sendLead(payload: Record<string, unknown>, submissionId: string): Promise<void> {
  const response = await fetch(LEAD_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json", [IDEMPOTENCY_HEADER]: submissionId },
    body: JSON.stringify(payload),
  });
  if (response.ok) return;
  const body = (await response.json().catch(() => ({}))) as { fieldErrors?: FieldErrors };
  throw new LeadRequestError(response.status, body.fieldErrors ?? {});
}

export interface LeadFormOutcome {
  ok: boolean;
  /** The page was rendered by the server after a POST made without scripts. */
  renderedByServer: boolean;
}

interface LeadFormOptions<T, Field extends string> {
  /** Prefix for element ids, so two forms never share one. */
  formId: string;
  /** The fields in page order (the first invalid one gets focus), with their labels and placeholders. */
  fields: Record<Field, { label: string; placeholder: string }>;
  validate(values: Record<string, string>): LeadValidation<T>;
  /** The JSON body for the endpoint, from the validated values. */
  toPayload(data: T): Record<string, unknown>;
  /** A result rendered by the server for a POST made without JavaScript. */
  serverResult: LeadFormResult | undefined;
  onSuccess?(): void;
  onFailure(error: unknown): void;
}

/**
 * The shared behaviour of the two lead forms once scripts run: validate with the same schema as the
 * server, focus the first invalid field, send without reloading, and clear the form on success.
 * Before hydration (or with JavaScript off) the same form posts to the page's own action instead.
 */
export function useLeadForm<T, Field extends string>(options: LeadFormOptions<T, Field>) {
  const fieldOrder = Object.keys(options.fields) as Field[];
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(
    options.serverResult?.ok === false ? options.serverResult.fieldErrors : {},
  );
  // Field errors speak for themselves; the notice is for a request that was sent, or failed as a whole.
  const [outcome, setOutcome] = useState<LeadFormOutcome | undefined>(
    options.serverResult && (options.serverResult.ok || Object.keys(options.serverResult.fieldErrors).length === 0)
      ? { ok: options.serverResult.ok, renderedByServer: true }
      : undefined,
  );
  // Native constraint bubbles help without JavaScript; with it, the schema's own messages take over.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  // Made in the page at the first send and kept until one succeeds, so a retry of the same lead reuses it.
  const submissionId = useRef(options.serverResult?.ok === false ? options.serverResult.submissionId : undefined);

  function focusFirstInvalid(form: HTMLFormElement, errors: FieldErrors) {
    const first = fieldOrder.find((field) => errors[field]);
    const element = first ? form.elements.namedItem(first) : null;
    if (element instanceof HTMLElement) element.focus();
  }

  /**
   * Empties every field, which is also each form's initial state: after a successful send the form is empty. Not form.reset(): after a
   * POST made before hydration the server rendered the sent values as the fields' defaults, and
   * reset() would bring them back.
   */
  function clearFields(form: HTMLFormElement) {
    for (const name of fieldOrder) {
      const control = form.elements.namedItem(name);
      if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) control.value = "";
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { [HONEYPOT_FIELD]: honeypot = "", ...values } = Object.fromEntries(
      Array.from(new FormData(form), ([name, value]) => [name, String(value)]),
    );
    // The hidden id is for posts made without scripts; with them, the id kept in the page goes in a header.
    delete values[SUBMISSION_ID_FIELD];
    setOutcome(undefined);
    const validation = options.validate(values);
    if (!validation.success) {
      setFieldErrors(validation.fieldErrors);
      focusFirstInvalid(form, validation.fieldErrors);
      return;
    }
    setFieldErrors({});
    setPending(true);
    try {
      submissionId.current ??= newSubmissionId();
      await sendLead(
        { ...options.toPayload(validation.data), ...(honeypot ? { [HONEYPOT_FIELD]: honeypot } : {}) },
        submissionId.current,
      );
      submissionId.current = undefined;
      clearFields(form);
      setOutcome({ ok: true, renderedByServer: false });
      options.onSuccess?.();
    } catch (error) {
      if (error instanceof LeadRequestError && Object.keys(error.fieldErrors).length > 0) {
        setFieldErrors(error.fieldErrors);
        focusFirstInvalid(form, error.fieldErrors);
      }
      setOutcome({ ok: false, renderedByServer: false });
      options.onFailure(error);
    } finally {
      setPending(false);
    }
  }

  const submitted = options.serverResult?.ok === false ? options.serverResult.values : {};
  const firstInvalid = fieldOrder.find((field) => fieldErrors[field]);
  /** Props for one FormField: label, error, the value the server got back, and focus for a server-rendered error. */
  const field = (name: Field) => ({
    formId: options.formId,
    name,
    ...options.fields[name],
    error: fieldErrors[name],
    defaultValue: submitted[name],
    autoFocus: !scripted && firstInvalid === name,
  });

  return {
    pending,
    outcome,
    onSubmit,
    noValidate: scripted,
    field,
    /** For a page the server rendered: a hidden field with the id the form posts next without scripts. */
    submissionIdInput: options.serverResult
      ? { type: "hidden", name: SUBMISSION_ID_FIELD, value: options.serverResult.submissionId }
      : undefined,
  };
}

import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, Link, useActionData, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { CONFIRMED_FIELD, FORM_KEY_FIELD, type Confirmation, type Said } from "~/lib/console-form.ts";
import type { loader as layoutLoader } from "../layout.tsx";
import { buttonClass, dangerButtonClass, quietButtonClass } from "./TableRegion.tsx";

/**
 * Every console form that changes something (app/server/console/forms.server.ts is its server side): it carries a
 * one-time key, so that sending it twice acts once; it starts afresh (an add form empty) once its action is done;
 * and when the action asks first, the question takes the form's place, with the button that does it and "Cancel",
 * with or without JavaScript.
 */
export function ConsoleForm({
  name,
  row,
  action,
  destructive = false,
  encType,
  className,
  children,
}: {
  /** The form's name, sent as its `intent`: one word per kind of form on the page. */
  name: string;
  /** The row the form acts on, when the page has one such form a row. */
  row?: string;
  action?: string;
  /** Whether the answer's button takes something away (red). */
  destructive?: boolean;
  encType?: "multipart/form-data";
  className?: string;
  children: ReactNode;
}) {
  const frame = useRouteLoaderData<typeof layoutLoader>("routes/admin/layout");
  const formToken = frame?.formToken ?? "";
  const actionData = useActionData<{ confirm?: Confirmation; said?: Said } | undefined>();
  const sendOnce = useSendOnce();
  const formName = row ? `${name}.${row}` : name;
  const formKey = `${formToken}.${formName}`;
  const generation = useFreshAfterDone(formName, [frame?.said, actionData?.said]);
  const confirm = actionData?.confirm;
  if (confirm && nameInKey(confirm.formKey) === formName) {
    return <ConfirmStep confirm={confirm} action={action} destructive={destructive} />;
  }
  return (
    <Form
      key={generation}
      method="post"
      action={action}
      encType={encType}
      className={className}
      noValidate
      onSubmit={sendOnce}
    >
      <input type="hidden" name="intent" value={name} />
      <input type="hidden" name={FORM_KEY_FIELD} value={formKey} />
      {children}
    </Form>
  );
}

/**
 * A form's submit handler: while it is being sent, a second click sends nothing. Without JavaScript, the form's key
 * makes it act once; with it, the second sending would also be answered only with what the first did, without what
 * the first showed once (a new secret or key).
 */
function useSendOnce(): (event: FormEvent) => void {
  const idle = useNavigation().state === "idle";
  const sending = useRef(false);
  useEffect(() => {
    if (idle) sending.current = false;
  }, [idle]);
  return (event) => {
    if (sending.current) event.preventDefault();
    sending.current = true;
  };
}

/** A form's key without the page view's token: its name, and its row. */
const nameInKey = (formKey: string) => formKey.slice(formKey.indexOf(".") + 1);

/**
 * A number that changes when this form's action has been done, so that the form starts afresh (an add form empty,
 * an edit form with what was saved), and only then: what is typed meanwhile is never replaced.
 */
function useFreshAfterDone(formName: string, said: (Said | null | undefined)[]): number {
  const mine = said.find((one) => one && nameInKey(one.form) === formName);
  const doneAt = mine ? mine.at : null;
  const [generation, setGeneration] = useState(0);
  const seen = useRef(doneAt);
  useEffect(() => {
    if (doneAt === null || doneAt === seen.current) return;
    seen.current = doneAt;
    setGeneration((value) => value + 1);
  }, [doneAt]);
  return generation;
}

/** The question before an action that cannot be undone: the form's fields sent again with the answer. */
function ConfirmStep({
  confirm,
  action,
  destructive,
}: {
  confirm: Confirmation;
  action: string | undefined;
  destructive: boolean;
}) {
  const location = useLocation();
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => question.current?.focus(), []);
  const sendOnce = useSendOnce();
  return (
    // A line of its own, whatever row of buttons it takes the place of; a long address in the question wraps.
    <Form
      method="post"
      action={action}
      className="mt-3 grid w-full gap-3 rounded border-2 border-slate-500 bg-slate-50 p-4"
      onSubmit={sendOnce}
    >
      {confirm.fields.map(([field, value], index) => (
        <input key={index} type="hidden" name={field} value={value} />
      ))}
      <input type="hidden" name={CONFIRMED_FIELD} value="yes" />
      <p ref={question} tabIndex={-1} className="font-semibold wrap-anywhere text-slate-900 focus:outline-none">
        {confirm.question}
      </p>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={destructive ? dangerButtonClass : buttonClass}>
          {confirm.confirmLabel}
        </button>
        <Link to={`${location.pathname}${location.search}`} replace className={quietButtonClass}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

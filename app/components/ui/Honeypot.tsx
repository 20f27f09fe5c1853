import { HONEYPOT_FIELD } from "~/lib/lead-schemas.ts";

/** A field bots fill in and people never meet: off-screen, hidden from assistive tech, out of the tab order. */
export function Honeypot({ formId }: { formId: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={`${formId}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
      <input id={`${formId}-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

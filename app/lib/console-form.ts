/** What a console form and the server's side of it agree on (app/server/console/forms.server.ts). */

/** The hidden field with the form's one-time key: the page view's token, the form's name and its row, if any. */
export const FORM_KEY_FIELD = "formKey";
/** The hidden field the second step of an action that cannot be undone sends: the operator has said yes. */
export const CONFIRMED_FIELD = "confirmed";

/** An action that cannot be undone, asked about before it is done. */
export interface Confirmation {
  /** The form's key, so that the form it came from shows the question. */
  formKey: string;
  /** Exactly what will happen: "Credit Pat's Pipes $55.00 for the job of Nov 30?" */
  question: string;
  /** The button that does it: "Yes, approve". */
  confirmLabel: string;
  /** The fields as sent, sent again with the answer. */
  fields: [string, string][];
}

/** What an action did, said once: by the page it led to, or (a new key) by the page that answers. */
export interface Said {
  message: string;
  /** The key of the form that did it: that form starts afresh. */
  form: string;
  /** When, so that the same words said twice are two confirmations. */
  at: number;
}

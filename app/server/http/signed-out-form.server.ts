import { readRequestBody } from "./request-body.server.ts";

/** Forms posted to the console before a session exists (sign-in, the two-step code) are at most this large. */
const SIGNED_OUT_FORM_LIMIT_BYTES = 16 * 1024;

export type SignedOutForm = { fields: Record<string, unknown> } | { status: 400 | 413 | 415; error: string };

/**
 * The fields of a sign-in form. Anyone may post one, so its body is bounded: a Content-Length over 16 KB is
 * refused before a byte is read, and a body without one (chunked) is refused once 16 KB have arrived.
 */
export async function readSignedOutForm(request: Request): Promise<SignedOutForm> {
  const parsed = await readRequestBody(
    { header: (name) => request.headers.get(name), body: request.body },
    SIGNED_OUT_FORM_LIMIT_BYTES,
  );
  if ("payload" in parsed) return { fields: parsed.payload };
  return parsed.status === 413
    ? { status: 413, error: `The form is too large (at most ${SIGNED_OUT_FORM_LIMIT_BYTES / 1024} KB).` }
    : { status: parsed.status, error: "The form could not be read. Please reload the page and try again." };
}

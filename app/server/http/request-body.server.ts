/**
 * The one body reader: the size (counted while reading), UTF-8, and for forms and JSON the content type and
 * parsing. A body refused or cut short is drained in the background, so a client still uploading sees the
 * answer instead of a reset connection.
 */

/** A lead form or API request is at most this large. */
const LEAD_BODY_LIMIT_BYTES = 32 * 1024;
const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;

type BodyRejection = { status: 400 | 413 | 415; error: string };

type ParsedBody = { payload: Record<string, unknown> } | BodyRejection;

/** What the reader needs from a request, whichever server received it. */
export interface BodySource {
  /** A header by its lower-case name. */
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array> | null;
}

/** A form or JSON body as an object of fields, or why not. */
export async function readRequestBody(request: BodySource, limitBytes = LEAD_BODY_LIMIT_BYTES): Promise<ParsedBody> {
  const contentType = (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isJson = contentType === "application/json";
  if (!isJson && contentType !== "application/x-www-form-urlencoded") {
    if (request.body) void discardRest(request.body[Symbol.asyncIterator]());
    return { status: 415, error: "Send the request as application/json." };
  }
  const text = await readBodyText(request, limitBytes);
  if (text === "too-large") return { status: 413, error: `The request is larger than ${limitBytes / 1024} KB.` };
  if (text === "not-utf8") return { status: 400, error: "The request is not valid UTF-8 text." };
  if (!isJson) return { payload: Object.fromEntries(new URLSearchParams(text)) };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { status: 400, error: "The request body is not valid JSON." };
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return { status: 400, error: "The request body must be a JSON object." };
  }
  return { payload: payload as Record<string, unknown> };
}

/**
 * The body as UTF-8 text, reading at most `limitBytes`, counted as they arrive: Content-Length may be absent
 * (chunked) or wrong. Whatever is left unread (past a declared or counted size) is drained in the background.
 */
export async function readBodyText(
  request: BodySource,
  limitBytes: number,
): Promise<string | "too-large" | "not-utf8"> {
  const body = request.body?.[Symbol.asyncIterator]();
  try {
    if (Number(request.header("content-length") ?? 0) > limitBytes) return "too-large";
    if (!body) return "";
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await body.next();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) return "too-large";
      chunks.push(value);
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
    } catch {
      return "not-utf8";
    }
  } finally {
    if (body) void discardRest(body);
  }
}

/**
 * Cancelling the stream resets the connection, and a client still uploading would never see the 413.
 * So the rest is read and dropped in the background, up to a bound; past it, the stream is cancelled.
 */
async function discardRest(body: AsyncIterator<Uint8Array>): Promise<void> {
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await body.next();
      if (done) return;
      total += value.byteLength;
      if (total > DISCARD_LIMIT_BYTES) {
        await body.return?.();
        return;
      }
    }
  } catch {
    // The client went away; nothing to do.
  }
}

/**
 * Reads a form or JSON request body for the lead intake: the content type, the size (counted while
 * reading), UTF-8, then JSON or urlencoded parsing. A body refused or cut short is drained in the
 * background, so a client still uploading sees the answer instead of a reset connection.
 */

const BODY_LIMIT_BYTES = 32 * 1024;
const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;

type BodyRejection = { status: 400 | 413 | 415; error: string };

type ParsedBody = { payload: Record<string, unknown> } | BodyRejection;

/** What the reader needs from a request, whichever server received it. */
export interface BodySource {
  /** A header by its lower-case name. */
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array> | null;
}

/** Parses the body, or says why not; a body larger than `limitBytes` (32 KB unless given) is refused unread. */
export async function readRequestBody(
  request: BodySource,
  { limitBytes = BODY_LIMIT_BYTES }: { limitBytes?: number } = {},
): Promise<ParsedBody> {
  const body = request.body?.[Symbol.asyncIterator]();
  try {
    return await parseBody(request, body, limitBytes);
  } finally {
    // Whatever is left unread (a refused type or declared size, or the rest past the limit) is drained.
    if (body) void discardRest(body);
  }
}

async function parseBody(
  request: BodySource,
  body: AsyncIterator<Uint8Array> | undefined,
  limitBytes: number,
): Promise<ParsedBody> {
  const contentType = (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isJson = contentType === "application/json";
  if (!isJson && contentType !== "application/x-www-form-urlencoded") {
    return { status: 415, error: "Send the request as application/json." };
  }
  const text = await readBodyText(request, body, limitBytes);
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

/** Reads at most `limitBytes`, counting bytes as they arrive: Content-Length may be absent (chunked) or wrong. */
async function readBodyText(
  request: BodySource,
  body: AsyncIterator<Uint8Array> | undefined,
  limitBytes: number,
): Promise<string | "too-large" | "not-utf8"> {
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

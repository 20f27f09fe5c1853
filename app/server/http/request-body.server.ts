import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The one body reader: the size (counted while reading), UTF-8, and for forms and JSON the content type and
 * parsing. A body refused or cut short is drained in the background, so a client still uploading sees the
 * answer instead of a reset connection.
 */

/**
 * Every request body the server reads is at most this large, whatever the route: a lead form or API request,
 * a Twilio webhook, a partner's answer and every console form.
 */
const BODY_LIMIT_BYTES = 32 * 1024;
/** The one larger body: the conversions page's spend CSV upload (64 KB) with the form around it. */
const LARGER_BODY_LIMITS: ReadonlyMap<string, number> = new Map([["/admin/conversions", 72 * 1024]]);
const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * The most a request to `path` may send, matched as routes match (any case, optional trailing slash), the page's data
 * URL too: a form sent by script posts to /admin/conversions.data (or /admin/conversions/_.data).
 */
export function bodyLimitFor(path: string): number {
  const route = path.replace(/\/_\.data$|\.data$/, "") || "/";
  const key = route.length > 1 ? route.replace(/\/+$/, "").toLowerCase() : route;
  return LARGER_BODY_LIMITS.get(key) ?? BODY_LIMIT_BYTES;
}

/** The answer's words for a body over `limitBytes`. */
function tooLargeMessage(limitBytes: number): string {
  return `The request is larger than ${limitBytes / 1024} KB.`;
}

type BodyRejection = { status: 400 | 413 | 415; error: string };

type ParsedBody = { payload: Record<string, unknown> } | BodyRejection;

/** What the reader needs from a request, whichever server received it. */
export interface BodySource {
  /** A header by its lower-case name. */
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array> | null;
}

/** A form or JSON body as an object of fields, or why not. */
export async function readRequestBody(request: BodySource, limitBytes = BODY_LIMIT_BYTES): Promise<ParsedBody> {
  const contentType = (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isJson = contentType === "application/json";
  if (!isJson && contentType !== "application/x-www-form-urlencoded") {
    if (request.body) void discardRest(request.body[Symbol.asyncIterator]());
    return { status: 415, error: "Send the request as application/json." };
  }
  const bytes = await readBodyBytes(request, limitBytes);
  if (bytes === "too-large") return { status: 413, error: tooLargeMessage(limitBytes) };
  const text = utf8(bytes);
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

/** The body as UTF-8 text, read as readBodyBytes reads it. */
export async function readBodyText(
  request: BodySource,
  limitBytes: number,
): Promise<string | "too-large" | "not-utf8"> {
  const bytes = await readBodyBytes(request, limitBytes);
  return bytes === "too-large" ? bytes : utf8(bytes);
}

function utf8(bytes: Buffer): string | "not-utf8" {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "not-utf8";
  }
}

/**
 * The body, reading at most `limitBytes`, counted as they arrive: Content-Length may be absent (chunked) or
 * wrong. Whatever is left unread (past a declared or counted size) is drained in the background.
 */
export async function readBodyBytes(request: BodySource, limitBytes: number): Promise<Buffer | "too-large"> {
  const body = request.body?.[Symbol.asyncIterator]();
  try {
    if (Number(request.header("content-length") ?? 0) > limitBytes) return "too-large";
    if (!body) return Buffer.alloc(0);
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await body.next();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) return "too-large";
      chunks.push(value);
    }
    return Buffer.concat(chunks);
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

/**
 * The one rule in front of every route, before anything reads a body: a request declaring a body over its
 * route's limit gets 413 at once (JSON for a script, text for a browser's form), and the rest is drained. A body
 * without a declared length (chunked) is counted by the reader that reads it, with the same limit, so nothing
 * past the limit is ever held in memory. True when the request was answered.
 */
export function refusedForOversizedBody(req: IncomingMessage, res: ServerResponse): boolean {
  const limit = bodyLimitFor((req.url ?? "/").split("?")[0]!);
  if (Number(req.headers["content-length"] ?? 0) <= limit) return false;
  answerTooLarge(req, res, limit);
  void discardRest(req[Symbol.asyncIterator]());
  return true;
}

/** 413, in JSON for a script and as text for a browser's form. */
export function answerTooLarge(req: IncomingMessage, res: ServerResponse, limitBytes: number): void {
  const json = /\bjson\b/i.test(req.headers.accept ?? "") || /json/i.test(req.headers["content-type"] ?? "");
  const message = tooLargeMessage(limitBytes);
  res.writeHead(413, {
    "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  res.end(json ? JSON.stringify({ error: message, fieldErrors: {} }) : message);
}

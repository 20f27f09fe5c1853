import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { answerTooLarge, bodyLimitFor, readBodyBytes } from "./request-body.server.ts";
import { writeBody } from "./response-body.server.ts";

/**
 * Express in front of React Router: every page, loader and action. A form action's body is read here by the one
 * body reader, within its route's limit, before React Router parses it: an action's `request.formData()` only
 * ever sees a body that fit, and one over the limit gets 413 however it was sent.
 */
export function reactRouterRequests(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext(req: ExpressRequest, res: ExpressResponse): RouterContextProvider;
}) {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      let body: Uint8Array<ArrayBuffer> | undefined;
      if (req.method !== "GET" && req.method !== "HEAD") {
        const limit = bodyLimitFor(req.path);
        const read = await readBodyBytes({ header: (name) => req.get(name) ?? null, body: req }, limit);
        if (read === "too-large") return answerTooLarge(req, res, limit);
        body = new Uint8Array(read);
      }
      const aborted = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) aborted.abort();
      });
      const request = new Request(requestUrl(req), {
        method: req.method,
        headers: requestHeaders(req),
        body,
        signal: aborted.signal,
      });
      await sendResponse(res, await handle(request, options.getLoadContext(req, res)));
    } catch (error) {
      next(error);
    }
  };
}

/** The URL React Router sees: the Host (or, behind a trusted proxy, X-Forwarded-Host) and the original path. */
function requestUrl(req: ExpressRequest): string {
  const forwardedPort = req.app.enabled("trust proxy") ? req.get("x-forwarded-host")?.split(":")[1] : undefined;
  const port = Number.parseInt(forwardedPort ?? req.get("host")?.split(":")[1] ?? "", 10);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`).href;
}

function requestHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value) headers.set(name, value);
  }
  return headers;
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (!response.body) return void res.end();
  try {
    await writeBody(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}

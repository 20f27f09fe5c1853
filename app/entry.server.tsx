import { PassThrough } from "node:stream";
import type { EntryContext, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import siteStylesheet from "./app.css?inline";
import siteStylesheetHref from "./app.css?url";
import { NonceContext } from "~/lib/nonce.ts";
import { deferHydration, inlineStylesheet } from "~/server/http/index.server.ts";
import { log } from "~/server/log.server.ts";

export const streamTimeout = 5_000;

/** The public settings this build was made with; server.ts builds its headers from them. */
export { siteConfig as publicSiteConfig } from "~/config/site.ts";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Prerendering's load context is React Router's own, with no nonce: the server pins those pages' scripts by hash.
  const nonce = loadContext.cspNonce as string | undefined;
  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        // The whole document is buffered: pages are small, and deferHydration rewrites it.
        onAllReady() {
          const chunks: Buffer[] = [];
          const sink = new PassThrough();
          sink.on("data", (chunk: Buffer) => chunks.push(chunk));
          sink.on("end", () => {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            const rendered = Buffer.concat(chunks).toString("utf8");
            // In development the CSS stays a stylesheet that Vite updates in place (root.tsx).
            const html = import.meta.env.DEV
              ? deferHydration(rendered, nonce)
              : deferHydration(inlineStylesheet(rendered, siteStylesheet, nonce), nonce, siteStylesheetHref);
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          });
          pipe(sink);
        },
        onShellError: reject,
        onError(error) {
          responseStatusCode = 500;
          log.error({ err: error }, "render failed");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000).unref();
  });
}

/** Client errors (unknown paths, wrong methods) are the visitor's, and the server logs 404s itself. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Error && error.message.startsWith("No route matches URL")) return;
  log.error({ err: error }, "request handling failed");
}

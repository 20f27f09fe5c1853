/**
 * The HTTP edge: prerendered pages and built assets, security headers, method, Host, origin and POST
 * limits, health probes, request logs, the console's gate, and everything else handed to React Router.
 * Counted page views and calls are answered before Express, after the log line, headers and Host check every
 * request gets, and the same origin check (docs/decisions/071).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import express from "express";
import proxyAddr from "proxy-addr";
import { RouterContextProvider } from "react-router";
import type { Env } from "~/config/env.server.ts";
import { LEAD_ENDPOINT } from "~/lib/lead-schemas.ts";
import { SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { TRACKING_NUMBER_ENDPOINT } from "~/lib/tracking-number.ts";
import { consoleGate, isConsolePath, type Operator } from "../console/index.server.ts";
import { createPostRateLimit } from "../limits/index.server.ts";
import { log } from "../log.server.ts";
import { responseCompression } from "./compression.server.ts";
import { leadEndpointCors } from "./cors.server.ts";
import { nonceForRenderedResponses } from "./csp.server.ts";
import { handleError } from "./errors.server.ts";
import type { FrontEnd } from "./front-end.server.ts";
import { healthz, readyz } from "./health.server.ts";
import { refusedForMalformedHost } from "./host.server.ts";
import { leadEndpoint } from "./lead-submissions.server.ts";
import { allowOnlyKnownMethods } from "./methods.server.ts";
import { refuseConsoleChangesFromElsewhere, refuseCrossSite, refusedAsCrossSite } from "./origin.server.ts";
import { limitUnsafeRequests } from "./post-limit.server.ts";
import { servePrerenderedPages } from "./prerendered-pages.server.ts";
import { reactRouterRequests } from "./react-router-requests.server.ts";
import { readApiEndpoints } from "./read-api-endpoint.server.ts";
import { refusedForOversizedBody } from "./request-body.server.ts";
import { siteEventsEndpoint } from "./site-events-endpoint.server.ts";
import { logRequest } from "./request-log.server.ts";
import { baseSecurityHeaders } from "./security-headers.server.ts";
import { MAX_CONNECTIONS, SERVER_OPTIONS } from "./server-limits.server.ts";

/** The HTTP server with its timeouts and connection limit; Vite's dev server attaches to it before it serves. */
export function newHttpServer(): Server {
  const server = createServer(SERVER_OPTIONS);
  server.maxConnections = MAX_CONNECTIONS;
  return server;
}

/**
 * Has `server` answer every request with the app's services and front end. The composition root hands over the
 * services the routes get in their load context; the edge calls some of them itself (the lead intake, the counter
 * of page views, Twilio's webhooks, the read API, the console's sessions).
 */
export function serveApp(
  server: Server,
  env: Env,
  services: RouterContextProvider["services"],
  frontEnd: FrontEnd,
): void {
  const app = express();
  app.set("trust proxy", env.TRUST_PROXY);
  const { siteConfig } = frontEnd;
  const securityHeaders = Object.entries(baseSecurityHeaders(siteConfig));
  const trustedOrigins = [new URL(siteConfig.siteUrl).origin, ...env.ALLOWED_ORIGINS];

  // Page views and call clicks, counted in memory with their own per-IP limit. They are answered before
  // Express: a page sends one per view and per call, many times the number of leads, and Express's own work
  // per request is most of what one costs (docs/decisions/071).
  const trustProxy = app.get("trust proxy fn") as (address: string | undefined, hop: number) => boolean;
  const countSiteEvent = siteEventsEndpoint({
    counter: services.siteEvents,
    perMinute: env.ANALYTICS_RATE_LIMIT_PER_MINUTE,
    clientIp: (req) => proxyAddr(req, trustProxy),
  });

  app.disable("x-powered-by");
  app.use(allowOnlyKnownMethods);
  // Probes first: never rate-limited, never compressed, never rendered.
  app.get("/healthz", healthz);
  app.get("/readyz", readyz(services.outboxBacklog));
  app.use(responseCompression);
  app.use(frontEnd.files);
  app.use(servePrerenderedPages(frontEnd.pages));
  const cors = leadEndpointCors(env.ALLOWED_ORIGINS);
  app.options(LEAD_ENDPOINT, cors.preflight);
  // Twilio's webhooks with a valid signature are answered here, before the POST limit and the origin check
  // (Twilio's servers post many calls from few addresses, with no Origin); unsigned ones go through both, then 403.
  if (services.calls) app.use(services.calls.webhooks.signed);
  if (services.texts) app.use(services.texts.webhooks.signed);
  // Page views and call clicks never get here: they have their own limit, so counting never uses up a form's.
  app.use(limitUnsafeRequests(createPostRateLimit(services.run, env.POST_RATE_LIMIT_PER_MINUTE), siteConfig));
  app.use(refuseCrossSite(trustedOrigins));
  app.use(refuseConsoleChangesFromElsewhere(new URL(siteConfig.siteUrl).origin, isConsolePath));
  app.post(LEAD_ENDPOINT, cors.grant, leadEndpoint(services.leads));
  if (services.calls) {
    app.use(services.calls.webhooks.refuse);
    app.post(TRACKING_NUMBER_ENDPOINT, services.calls.numberEndpoint);
  }
  if (services.texts) app.use(services.texts.webhooks.refuse);
  // The read API: keys in the Authorization header, never a cookie; GET only.
  const readApi = readApiEndpoints(services.readApi);
  app.get("/api/v1/openapi.json", readApi.openApi);
  for (const [path, list] of readApi.lists) app.get(path, list);
  app.get("/api/v1/statements/:id.csv", readApi.statementCsv);
  app.use(consoleGate(services.consoleAuth.sessions, services.db));
  app.use(nonceForRenderedResponses(siteConfig, frontEnd.mode));

  // The origin check above already decided; React Router's own check of form actions must not decide
  // differently (e.g. behind a proxy that rewrites Host), so it accepts every origin.
  const allowedActionOrigins = ["**"];
  const { build } = frontEnd;
  app.all(
    "/{*path}",
    reactRouterRequests({
      build:
        typeof build === "function"
          ? async () => ({ ...(await build()), allowedActionOrigins })
          : { ...build, allowedActionOrigins },
      mode: frontEnd.mode,
      getLoadContext: (req, res) =>
        Object.assign(new RouterContextProvider(), {
          cspNonce: res.locals.cspNonce as string,
          clientIp: req.ip ?? "unknown",
          services,
          operatorTimeZone: env.OPERATOR_TIME_ZONE,
          operator: (res.locals.operator as Operator | null | undefined) ?? null,
        }),
    }),
  );
  app.use(handleError(log));

  // What every response gets, whoever answers it: one log line, the security headers, a 400 for a Host
  // nothing may build a URL from, and a 413 for a body declared over its route's limit. Then the event counter
  // answers its own path, and Express everything else.
  const behindProxy = app.enabled("trust proxy");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    logRequest(log, req, res);
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    if (refusedForMalformedHost(req, res, behindProxy) || refusedForOversizedBody(req, res)) return;
    if (req.url?.split("?")[0] !== SITE_EVENTS_ENDPOINT) app(req, res);
    else if (!refusedAsCrossSite(req, res, trustedOrigins)) countSiteEvent(req, res);
  });
}

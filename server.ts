/**
 * The Node server: prerendered pages and built assets, security headers, method, Host, origin and POST
 * limits, health probes, request logs, the console's gate, and everything else handed to React Router.
 * Counted page views and calls are answered before Express, after the log line, headers and Host check every
 * request gets, and the same origin check.
 * Graceful shutdown closes the database. `--dev` (npm run dev) serves the app through Vite instead of the
 * build, with the same stack.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import proxyAddr from "proxy-addr";
import { createRequestHandler } from "@react-router/express";
import { env as processEnv, type Env } from "./app/config/env.server.ts";
import { commandSocketPath, listenForCommands } from "./app/server/cli/command-socket.server.ts";
import { consoleGate } from "./app/server/console/gate.server.ts";
import type { Operator } from "./app/server/console/sessions.server.ts";
import { clientKey } from "./app/server/http/client-key.server.ts";
import { leadEndpointCors } from "./app/server/http/cors.server.ts";
import { contentSecurityPolicy } from "./app/server/http/csp.server.ts";
import { handleError } from "./app/server/http/errors.server.ts";
import { builtFrontEnd, viteFrontEnd } from "./app/server/http/front-end.server.ts";
import { healthz, readyz } from "./app/server/http/health.server.ts";
import { refusedForMalformedHost } from "./app/server/http/host.server.ts";
import { leadEndpoint } from "./app/server/http/lead-endpoint.server.ts";
import { allowOnlyKnownMethods, isUnsafeMethod } from "./app/server/http/methods.server.ts";
import { siteEventsEndpoint } from "./app/server/analytics/site-events-endpoint.server.ts";
import { SITE_EVENTS_ENDPOINT } from "./app/lib/site-events.ts";
import { refusedAsCrossSite } from "./app/server/http/origin.server.ts";
import { createPostRateLimit } from "./app/server/limits/window-limit.server.ts";
import { pageKey } from "./app/server/http/prerendered-pages.server.ts";
import { logRequest, requestIdOf } from "./app/server/http/request-log.server.ts";
import { baseSecurityHeaders } from "./app/server/http/security-headers.server.ts";
import { MAX_CONNECTIONS, SERVER_OPTIONS } from "./app/server/http/server-limits.server.ts";
import { tooManyRequestsPage } from "./app/server/http/too-many-requests.server.ts";
import { LEAD_ENDPOINT } from "./app/lib/lead-schemas.ts";
import { TRACKING_NUMBER_ENDPOINT } from "./app/lib/tracking-number.ts";
import { log } from "./app/server/log.server.ts";
import { startServices, type AppServices } from "./app/server/services.server.ts";
import { runCommand } from "./app/server/cli/commands.server.ts";

/** On shutdown, requests in flight get this long to finish before their connections are closed. */
const REQUEST_GRACE_MS = 5_000;
/** Shutdown is bounded by the graces above; this catches only a close that hangs. */
const LAST_RESORT_EXIT_MS = 30_000;

export interface RunningServer {
  url: string;
  server: Server;
  services: AppServices;
  /**
   * Stops accepting connections, lets requests in flight finish (cut after a grace period), stops the
   * outbox (sends in flight likewise), then closes the database.
   */
  close(): Promise<void>;
  /** Cuts requests and email sends in flight now, for a close in progress; the database is still closed. */
  hurry(): void;
}

export async function startServer(env: Env = processEnv, options: { dev?: boolean } = {}): Promise<RunningServer> {
  // Open the database (PGlite takes seconds) before accepting any request.
  const services = await startServices(env);
  const app = express();
  app.set("trust proxy", env.TRUST_PROXY);
  // Requests are taken once everything below is set up (Vite needs the server before that, for hot reload).
  const server = createServer(SERVER_OPTIONS);
  server.maxConnections = MAX_CONNECTIONS;
  const frontEnd = options.dev ? await viteFrontEnd(env, server) : await builtFrontEnd(env.BUILD_DIR);
  const { siteConfig, pages } = frontEnd;
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
  // Local `npm run leads` / `npm run operator` reach the embedded database through this server.
  const commandSocket = services.pgliteDataDir
    ? await listenForCommands(commandSocketPath(services.pgliteDataDir), (request, output) =>
        runCommand(services.db, request, output, { outboxDir: env.OUTBOX_DIR }),
      )
    : undefined;

  app.disable("x-powered-by");
  app.use(allowOnlyKnownMethods);

  // Probes first: never rate-limited, never compressed, never rendered.
  app.get("/healthz", healthz);
  app.get("/readyz", readyz(services.db));

  app.use(compression());

  app.use(frontEnd.files);

  app.use((req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const page = pages.get(pageKey(req.path));
    if (!page) return next();
    res.set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=0, must-revalidate",
      "Content-Security-Policy": page.csp,
      ETag: page.etag,
    });
    if (req.fresh) return res.status(304).end();
    res.status(200).send(page.html);
  });

  const cors = leadEndpointCors(env.ALLOWED_ORIGINS);
  app.options(LEAD_ENDPOINT, cors.preflight);

  // Twilio's webhooks with a valid signature are answered here, before the POST limit and the origin check
  // (Twilio's servers post many calls from few addresses, with no Origin); unsigned ones go through both, then 403.
  if (services.calls) app.use(services.calls.webhooks.signed);

  // Every unsafe request counts against the per-minute limit, shared by all instances through the database
  // (page views and call clicks never get here: they have their own limit, so counting never uses up a form's).
  const countPost = createPostRateLimit(services.run, env.POST_RATE_LIMIT_PER_MINUTE);
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!isUnsafeMethod(req.method)) return next();
    let limit: Awaited<ReturnType<typeof countPost>>;
    try {
      limit = await countPost(clientKey(req.ip ?? "unknown"));
    } catch (error) {
      // The database does not answer: the request goes on, and the form or API that needs the database
      // answers 503 in its own words (the form limit is counted in the same statement as the lead).
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ requestId: requestIdOf(res) }, `POST limit not counted, database unavailable: ${reason}`);
      return next();
    }
    if (limit.allowed) return next();
    res.set("Retry-After", String(limit.retryAfterSeconds)).status(429);
    // A form posted without JavaScript gets a page; the JSON endpoint gets JSON.
    if (req.accepts(["json", "html"]) === "html") res.type("html").send(tooManyRequestsPage(siteConfig, req.path));
    else res.json({ error: "Too many requests. Please try again later.", fieldErrors: {} });
  });

  // Cross-site unsafe requests are refused with a 403 before any form or the API sees them.
  app.use((req, res, next) => {
    if (!refusedAsCrossSite(req, res, trustedOrigins)) next();
  });

  app.post(LEAD_ENDPOINT, cors.grant, leadEndpoint(services.leads));
  if (services.calls) {
    app.use(services.calls.webhooks.refuse);
    app.post(TRACKING_NUMBER_ENDPOINT, services.calls.numberEndpoint);
  }

  app.use(consoleGate(services.consoleAuth.sessions));

  // Server-rendered responses (form results, 404s, the console) get a fresh nonce for their inline
  // scripts. In development Vite injects its own inline scripts and styles, so there is no CSP there.
  app.use((_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    if (frontEnd.mode === "production") {
      res.set("Content-Security-Policy", contentSecurityPolicy(siteConfig, [`'nonce-${nonce}'`]));
    }
    next();
  });

  // The origin check above already decided; React Router's own check of form actions must not decide
  // differently (e.g. behind a proxy that rewrites Host), so it accepts every origin.
  const allowedActionOrigins = ["**"];
  const { build } = frontEnd;
  app.all(
    "/{*path}",
    createRequestHandler({
      build:
        typeof build === "function"
          ? async () => ({ ...(await build()), allowedActionOrigins })
          : { ...build, allowedActionOrigins },
      mode: frontEnd.mode,
      getLoadContext: (req, res) => ({
        cspNonce: res.locals.cspNonce as string,
        clientIp: req.ip ?? "unknown",
        services,
        operator: (res.locals.operator as Operator | null | undefined) ?? null,
      }),
    }),
  );

  app.use(handleError(log));

  // What every response gets, whoever answers it: one log line, the security headers, and a 400 for a Host
  // nothing may build a URL from. Then the event counter answers its own path, and Express everything else.
  const behindProxy = app.enabled("trust proxy");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    logRequest(log, req, res);
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    if (refusedForMalformedHost(req, res, behindProxy)) return;
    if (req.url?.split("?")[0] !== SITE_EVENTS_ENDPOINT) app(req, res);
    else if (!refusedAsCrossSite(req, res, trustedOrigins)) countSiteEvent(req, res);
  });

  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await commandSocket?.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cutRequests = setTimeout(() => server.closeAllConnections(), REQUEST_GRACE_MS);
      await Promise.all([stopped, services.outbox.stop()]);
      clearTimeout(cutRequests);
      await frontEnd.close();
      await services.close();
    })());
  const hurry = () => {
    server.closeAllConnections();
    services.outbox.abortSends();
  };
  return { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`, server, services, close, hurry };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const running = await startServer(processEnv, { dev: process.argv.includes("--dev") });
  log.info(`Plumbline is serving ${running.url}`);
  let shuttingDown = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      // A second signal hurries the shutdown along but never skips closing the database.
      if (shuttingDown) {
        log.info(`${signal} again: cutting requests and email sends in flight short`);
        running.hurry();
        return;
      }
      shuttingDown = true;
      log.info(`${signal}: shutting down`);
      setTimeout(() => {
        log.error(`Shutdown did not finish within ${LAST_RESORT_EXIT_MS / 1000} s; exiting.`);
        process.exit(1);
      }, LAST_RESORT_EXIT_MS).unref();
      running.close().then(
        () => {
          log.info("Shut down: requests finished, email sends settled, database closed.");
          process.exit(0);
        },
        (error: unknown) => {
          log.error({ err: error }, "Shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}

/**
 * The Node server: prerendered pages and built assets, security headers, method, Host, origin and POST
 * limits, health probes, request logs, and everything else handed to React Router. Graceful shutdown
 * closes the database.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { createRequestHandler } from "@react-router/express";
import type { ServerBuild } from "react-router";
import { env as processEnv, type Env } from "./app/config/env.server.ts";
import type { PublicSiteConfig } from "./app/config/site.ts";
import { clientKey } from "./app/server/http/client-key.server.ts";
import { leadEndpointCors } from "./app/server/http/cors.server.ts";
import { contentSecurityPolicy } from "./app/server/http/csp.server.ts";
import { handleError } from "./app/server/http/errors.server.ts";
import { healthz, readyz } from "./app/server/http/health.server.ts";
import { requireWellFormedHost } from "./app/server/http/host.server.ts";
import { leadEndpoint } from "./app/server/http/lead-endpoint.server.ts";
import { allowOnlyKnownMethods, isUnsafeMethod } from "./app/server/http/methods.server.ts";
import { isAllowedOrigin } from "./app/server/http/origin.server.ts";
import { createPostRateLimit } from "./app/server/http/post-rate-limit.server.ts";
import { loadPrerenderedPages, pageKey } from "./app/server/http/prerendered-pages.server.ts";
import { publicFiles } from "./app/server/http/public-files.server.ts";
import { requestLog } from "./app/server/http/request-log.server.ts";
import { baseSecurityHeaders } from "./app/server/http/security-headers.server.ts";
import { MAX_CONNECTIONS, SERVER_OPTIONS } from "./app/server/http/server-limits.server.ts";
import { tooManyRequestsPage } from "./app/server/http/too-many-requests.server.ts";
import { LEAD_ENDPOINT } from "./app/lib/lead-schemas.ts";
import { log } from "./app/server/log.server.ts";
import { startServices, type AppServices } from "./app/server/services.server.ts";

const BUILD_DIR = fileURLToPath(new URL("./build/", import.meta.url));
const ONE_YEAR_SECONDS = 31_536_000;

export interface RunningServer {
  url: string;
  server: Server;
  services: AppServices;
  close(): Promise<void>;
}

export async function startServer(env: Env = processEnv): Promise<RunningServer> {
  // Open the database (PGlite takes seconds) before accepting any request.
  const services = await startServices(env);
  const build = (await import(`${BUILD_DIR}server/index.js`)) as ServerBuild;
  // The settings the pages were built with (decision 002), so headers always match the HTML.
  const { publicSiteConfig: siteConfig } = build.entry.module as unknown as { publicSiteConfig: PublicSiteConfig };
  const securityHeaders = baseSecurityHeaders(siteConfig);
  const pages = await loadPrerenderedPages(`${BUILD_DIR}client`, (hashes) => contentSecurityPolicy(siteConfig, hashes));

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(requestLog(log));
  app.use((_req, res, next) => {
    res.set(securityHeaders);
    next();
  });
  app.use(requireWellFormedHost);
  app.use(allowOnlyKnownMethods);

  // Probes first: never rate-limited, never compressed, never rendered.
  app.get("/healthz", healthz);
  app.get("/readyz", readyz(services.db));

  app.use(compression());

  // Fingerprinted assets never change.
  app.use(
    "/assets",
    express.static(`${BUILD_DIR}client/assets`, {
      immutable: true,
      maxAge: ONE_YEAR_SECONDS * 1000,
      index: false,
      redirect: false,
      fallthrough: false,
    }),
  );

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

  // Other public files (favicon, sitemap, route data); never a page's raw .html.
  app.use(publicFiles(`${BUILD_DIR}client`, { skip: "assets" }));

  const cors = leadEndpointCors(env.ALLOWED_ORIGINS);
  app.options(LEAD_ENDPOINT, cors.preflight);

  // Every unsafe request counts against the per-minute limit, shared by all instances through the database.
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
      log.warn({ requestId: res.locals.requestId }, `POST limit not counted, database unavailable: ${reason}`);
      return next();
    }
    if (limit.allowed) return next();
    res.set("Retry-After", String(limit.retryAfterSeconds)).status(429);
    // A form posted without JavaScript gets a page; the JSON endpoint gets JSON.
    if (req.accepts(["json", "html"]) === "html") res.type("html").send(tooManyRequestsPage(siteConfig, req.path));
    else res.json({ error: "Too many requests. Please try again later.", fieldErrors: {} });
  });

  // The one place that decides whether an unsafe request comes from our site: cross-site ones are refused
  // here, with a 403, before any form or the API sees them.
  const trustedOrigins = [new URL(siteConfig.siteUrl).origin, ...env.ALLOWED_ORIGINS];
  app.use((req, res, next) => {
    if (
      !isUnsafeMethod(req.method) ||
      isAllowedOrigin(req.get("origin") ?? null, req.get("host") ?? "", trustedOrigins)
    ) {
      return next();
    }
    res.status(403).json({ error: "Requests from other sites are not accepted.", fieldErrors: {} });
  });

  app.post(LEAD_ENDPOINT, cors.grant, leadEndpoint(services.leads));

  // Server-rendered responses (form results, 404s) get a fresh nonce for their inline scripts.
  app.use((_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.set("Content-Security-Policy", contentSecurityPolicy(siteConfig, [`'nonce-${nonce}'`]));
    next();
  });

  app.all(
    "/{*path}",
    createRequestHandler({
      // The origin check above already decided; React Router's own check of form actions must not
      // decide differently (e.g. behind a proxy that rewrites Host), so it accepts every origin.
      build: { ...build, allowedActionOrigins: ["**"] },
      mode: "production",
      getLoadContext: (req, res) => ({
        cspNonce: res.locals.cspNonce as string,
        clientIp: req.ip ?? "unknown",
        services,
      }),
    }),
  );

  app.use(handleError(log));

  const server = createServer(SERVER_OPTIONS, app);
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await services.close();
    })());

  return { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`, server, services, close };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const running = await startServer();
  log.info(`Plumbline is serving ${running.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      log.info(`${signal}: shutting down`);
      const forceExit = setTimeout(() => process.exit(1), 10_000);
      forceExit.unref();
      await running.close();
      process.exit(0);
    });
  }
}

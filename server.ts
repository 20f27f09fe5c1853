/**
 * The Node server: prerendered pages and built assets, security headers, POST rate limits, the console's
 * gate, and everything else handed to React Router. Graceful shutdown closes the database.
 * `--dev` (npm run dev) serves the app through Vite instead of the build, with the same stack.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { createRequestHandler } from "@react-router/express";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { env as processEnv, type Env } from "./app/config/env.server.ts";
import { commandSocketPath, listenForCommands } from "./app/server/command-socket.server.ts";
import { consoleGate } from "./app/server/console/gate.server.ts";
import type { Operator } from "./app/server/console/sessions.server.ts";
import { contentSecurityPolicy } from "./app/server/http/csp.server.ts";
import { builtFrontEnd, viteFrontEnd } from "./app/server/http/front-end.server.ts";
import { leadEndpoint } from "./app/server/http/lead-endpoint.server.ts";
import { siteEventsEndpoint } from "./app/server/analytics/site-events-endpoint.server.ts";
import { SITE_EVENTS_ENDPOINT } from "./app/lib/site-events.ts";
import { LEAD_ENDPOINT } from "./app/lib/lead-schemas.ts";
import { pageKey } from "./app/server/http/prerendered-pages.server.ts";
import { isAllowedOrigin } from "./app/server/http/origin.server.ts";
import { baseSecurityHeaders } from "./app/server/http/security-headers.server.ts";
import { tooManyRequestsPage } from "./app/server/http/too-many-requests.server.ts";
import { startServices, type AppServices } from "./app/server/services.server.ts";
import { runCommand } from "./scripts/commands.ts";

export interface RunningServer {
  url: string;
  server: Server;
  services: AppServices;
  close(): Promise<void>;
}

export async function startServer(env: Env = processEnv, options: { dev?: boolean } = {}): Promise<RunningServer> {
  // Open the database (PGlite takes seconds) before accepting any request.
  const services = await startServices(env);
  const app = express();
  const server = createServer(app);
  const frontEnd = options.dev ? await viteFrontEnd(env, server) : await builtFrontEnd();
  const { siteConfig, pages } = frontEnd;
  const securityHeaders = baseSecurityHeaders(siteConfig);
  // Local `npm run leads` / `npm run operator` reach the embedded database through this server.
  const commandSocket = services.pgliteDataDir
    ? await listenForCommands(commandSocketPath(services.pgliteDataDir), (request, output) =>
        runCommand(services.db, request, output),
      )
    : undefined;

  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(compression());
  app.use((_req, res, next) => {
    res.set(securityHeaders);
    next();
  });

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

  // Page views and call clicks: their own origin check and per-IP limit, so counting never uses up a form's.
  const trustedOrigins = [new URL(siteConfig.siteUrl).origin, ...env.ALLOWED_ORIGINS];
  app.all(
    SITE_EVENTS_ENDPOINT,
    siteEventsEndpoint({
      counter: services.siteEvents,
      perMinute: env.ANALYTICS_RATE_LIMIT_PER_MINUTE,
      trustedOrigins,
    }),
  );

  const postLimiter = new RateLimiterMemory({ points: env.POST_RATE_LIMIT_PER_MINUTE, duration: 60 });
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "POST") return next();
    try {
      await postLimiter.consume(req.ip ?? "unknown");
      next();
    } catch (rejection) {
      const retryAfter = Math.ceil(((rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000) / 1000);
      res.set("Retry-After", String(retryAfter)).status(429);
      // A form posted without JavaScript gets a page; the JSON endpoint gets JSON.
      if (req.accepts(["json", "html"]) === "html") res.type("html").send(tooManyRequestsPage(siteConfig, req.path));
      else res.json({ error: "Too many requests. Please try again later.", fieldErrors: {} });
    }
  });

  // Cross-site posts are refused here, with a 403, before any form or the API sees them.
  app.use((req, res, next) => {
    if (req.method !== "POST" || isAllowedOrigin(req.get("origin") ?? null, req.get("host") ?? "", trustedOrigins)) {
      return next();
    }
    res.status(403).json({ error: "Requests from other sites are not accepted.", fieldErrors: {} });
  });

  app.all(LEAD_ENDPOINT, leadEndpoint(services.leads));

  app.use(consoleGate(services.consoleAuth.sessions));

  // Server-rendered responses (form results, 404s) get a fresh nonce for their inline scripts. In
  // development Vite injects its own inline scripts and styles, so there is no CSP there.
  app.use((req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    if (frontEnd.mode === "production") {
      res.set("Content-Security-Policy", contentSecurityPolicy(siteConfig, [`'nonce-${nonce}'`]));
    }
    res.on("finish", () => {
      if (res.statusCode === 404) console.warn(`404 ${req.method} ${req.path}`);
    });
    next();
  });

  // The pages' form actions accept the site's public origin (behind a proxy that rewrites Host) and the
  // same extra origins as the API; React Router checks them by host.
  const allowedActionOrigins = [siteConfig.siteUrl, ...env.ALLOWED_ORIGINS].map((origin) => new URL(origin).host);
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

  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await commandSocket?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await frontEnd.close();
      await services.close();
    })());

  return { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`, server, services, close };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const running = await startServer(processEnv, { dev: process.argv.includes("--dev") });
  console.log(`Plumbline is serving ${running.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      console.log(`${signal}: shutting down`);
      const forceExit = setTimeout(() => process.exit(1), 10_000);
      forceExit.unref();
      await running.close();
      process.exit(0);
    });
  }
}

import type { Server } from "node:http";
import { listeningOn, type Env } from "~/config/env.server.ts";
import { commandSocketPath, listenForCommands, runCommand } from "./cli/index.server.ts";
import { builtFrontEnd, newHttpServer, serveApp, viteFrontEnd } from "./http/index.server.ts";
import { startServices, type AppServices } from "./services.server.ts";

/** On shutdown, requests in flight get this long to finish before their connections are closed. */
const REQUEST_GRACE_MS = 5_000;

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

/**
 * The whole server: services first (PGlite takes seconds to open) and then HTTP, on the built front end, or
 * on Vite with hot reload for `npm run dev`; the local command socket when the database is embedded.
 */
export async function startServer(settings: Env, options: { dev?: boolean } = {}): Promise<RunningServer> {
  const server = newHttpServer();
  // PORT 0: the system picks a free port as the server starts listening, and an unset SITE_URL is that address, so
  // the server listens before anything is started with the settings. Nobody knows the port before the start says it.
  const env = settings.PORT === 0 ? listeningOn(settings, await listen(server, settings)) : settings;
  let services: AppServices;
  try {
    services = await startServices(env);
  } catch (error) {
    server.close();
    throw error;
  }
  const frontEnd = options.dev ? await viteFrontEnd(env, server) : await builtFrontEnd(env.BUILD_DIR);
  serveApp(server, env, services, frontEnd);
  // Local `npm run leads` / `npm run operator` reach the embedded database through this server.
  const commandSocket = services.pgliteDataDir
    ? await listenForCommands(commandSocketPath(services.pgliteDataDir), (request, output) =>
        runCommand(services, request, output, {
          outboxDir: env.OUTBOX_DIR,
          backups: services.backups,
          timeZone: env.OPERATOR_TIME_ZONE,
          // The embedded database's statements take turns with lead intake's on its one connection.
          pausing: false,
        }),
      )
    : undefined;

  const port = server.listening ? env.PORT : await listen(server, env);

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

/** Listens on PORT and HOST; the port it listens on. */
async function listen(server: Server, env: Pick<Env, "PORT" | "HOST">): Promise<number> {
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, () => resolve()));
  const address = server.address();
  return typeof address === "object" && address ? address.port : env.PORT;
}

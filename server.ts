/**
 * The server's command: `node build/node/server.js` (npm start, on the output of `npm run build`), or with
 * `--dev` through tsx (npm run dev), which serves the app through Vite with hot reload on the same stack.
 * SIGINT or SIGTERM shuts down gracefully; a second one hurries that along.
 */
import { env } from "./app/config/env.server.ts";
import { log } from "./app/server/log.server.ts";
import { startServer } from "./app/server/start-server.server.ts";

/** Shutdown is bounded by its own grace periods; this catches only a close that hangs. */
const LAST_RESORT_EXIT_MS = 30_000;

const running = await startServer(env, { dev: process.argv.includes("--dev") });
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

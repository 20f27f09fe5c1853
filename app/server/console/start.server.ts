import type { Env } from "~/config/env.server.ts";
import type { Database } from "../db/index.server.ts";
import { log } from "../log.server.ts";
import { createConsoleAuth } from "./auth.server.ts";
import { createConsoleForms } from "./forms.server.ts";
import { issueSetupCode } from "./first-operator.server.ts";
import { loadSessionSecret } from "./session-secret.server.ts";

const SETUP_FRAME = "=".repeat(72);

/**
 * The console's sign-in and sessions, signed with SESSION_SECRET (or a key generated once into the data folder,
 * which other features derive their own keys from), and its forms, each acted on once. On a first run, until an
 * operator exists, the console's set-up page takes a code only the server's log shows.
 */
export async function startConsole(env: Env, db: Database) {
  const sessionSecret = await loadSessionSecret(env);
  const consoleAuth = createConsoleAuth({
    db,
    sessionSecret,
    siteUrl: env.SITE_URL,
    requireTwoStep: env.REQUIRE_TWO_STEP,
  });
  const consoleForms = createConsoleForms({ db, sessionSecret, siteUrl: env.SITE_URL });
  const setupCode = await issueSetupCode(db);
  if (setupCode) {
    // Framed, so that it stands out among the start's lines in a terminal.
    log.warn(
      `\n${SETUP_FRAME}\n  No console operator yet: create the first one at ${env.SITE_URL}/admin/setup\n` +
        `  with the set-up code ${setupCode}\n${SETUP_FRAME}`,
    );
  }
  return { consoleAuth, consoleForms, sessionSecret };
}

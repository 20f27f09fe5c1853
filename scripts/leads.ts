import { env } from "../app/config/env.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { runLeadsCommand } from "./leads-commands.ts";

const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: env.PGLITE_DATA_DIR, poolSize: 1 });
try {
  process.exitCode = await runLeadsCommand(database.db, process.argv.slice(2), (text) => process.stdout.write(text), {
    outboxDir: env.OUTBOX_DIR,
  });
} finally {
  await database.close();
}

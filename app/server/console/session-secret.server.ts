import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Env } from "~/config/env.server.ts";

/**
 * The key that signs session ids: SESSION_SECRET when set; otherwise one generated on first start and
 * kept in the data folder (readable by its owner only), so sessions survive a restart with no setup.
 * With the in-memory test database there is no data folder, and a fresh key per process is enough.
 */
export async function loadSessionSecret(env: Env): Promise<string> {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  if (env.PGLITE_DATA_DIR.startsWith("memory://")) return randomBytes(32).toString("hex");
  const path = sessionSecretPath(env.PGLITE_DATA_DIR);
  const kept = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (kept && kept.trim().length >= 32) {
    // A key written before this rule, or copied in, is made private too.
    await chmod(path, 0o600);
    return kept.trim();
  }
  const secret = randomBytes(32).toString("hex");
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // "wx": two instances starting together cannot overwrite each other's key; the loser reads the winner's.
  await writeFile(path, `${secret}\n`, { mode: 0o600, flag: kept === undefined ? "wx" : "w" }).catch(
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    },
  );
  return (await readFile(path, "utf8")).trim();
}

/** The data folder is the one that holds the embedded database's folder (./data by default). */
function sessionSecretPath(pgliteDataDir: string): string {
  return join(dirname(pgliteDataDir.replace(/\/+$/, "")), "session-secret");
}

import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import webpush from "web-push";
import { z } from "zod";

/**
 * The VAPID key pair that signs Web Push requests: from the settings when given; otherwise generated on first
 * start and kept in the data folder (readable by its owner only), so subscriptions survive a restart. With the
 * in-memory test database there is no data folder, and a fresh pair per process is enough.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const keptKeys = z.object({ publicKey: z.string().min(80), privateKey: z.string().min(40) });

export async function loadVapidKeys(settings: {
  publicKey: string | undefined;
  privateKey: string | undefined;
  pgliteDataDir: string;
}): Promise<VapidKeys> {
  if (settings.publicKey && settings.privateKey)
    return { publicKey: settings.publicKey, privateKey: settings.privateKey };
  if (settings.pgliteDataDir.startsWith("memory://")) return webpush.generateVAPIDKeys();
  const path = join(dirname(settings.pgliteDataDir.replace(/\/+$/, "")), "vapid-keys.json");
  const read = async () => {
    const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (text === undefined) return undefined;
    const parsed = keptKeys.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${path} does not hold a VAPID key pair; remove it to generate a new one`);
    return parsed.data;
  };
  const kept = await read();
  if (kept) {
    // The private key signs every push: readable by the server's user only, also in an install made before.
    await chmod(path, 0o600);
    return kept;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // "wx": two instances starting together cannot overwrite each other's keys; the loser reads the winner's.
  await writeFile(path, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`, { mode: 0o600, flag: "wx" }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    },
  );
  return (await read())!;
}

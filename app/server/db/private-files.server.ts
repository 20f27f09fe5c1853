import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";

const OWNER_ONLY_FOLDER = 0o700;
const OWNER_ONLY_FILE = 0o600;

/**
 * The embedded database's folder and everything in it become readable and writable by their owner only
 * (folders 0700, files 0600), and so does the data folder that holds it: PGlite creates its files 0666,
 * and they hold every lead and operator. Run before the database opens, after, and when it closes, so an
 * install made before this rule, and files PGlite added while running, are fixed too.
 *
 * The data folder itself (./data by default) is made 0700 only when this user owns it and it is not a
 * shared folder such as /tmp (sticky bit): a PGLITE_DATA_DIR placed in someone else's folder leaves that
 * folder as it is, and the database's own folder still protects everything in it.
 */
export async function makeDataPrivate(pgliteDataDir: string): Promise<void> {
  const databaseFolder = pgliteDataDir.replace(/\/+$/, "");
  await mkdir(databaseFolder, { recursive: true, mode: OWNER_ONLY_FOLDER });
  const dataFolder = dirname(databaseFolder);
  const folder = await lstat(dataFolder);
  const sticky = (folder.mode & 0o1000) !== 0;
  if (folder.isDirectory() && folder.uid === process.getuid?.() && !sticky) await chmod(dataFolder, OWNER_ONLY_FOLDER);
  await makeTreePrivate(databaseFolder);
}

/** A folder and everything below it; symbolic links are left alone (chmod would follow them). */
async function makeTreePrivate(folder: string): Promise<void> {
  await chmod(folder, OWNER_ONLY_FOLDER);
  const entries = await readdir(folder, { withFileTypes: true });
  await Promise.all(
    entries.map(async (entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await makeTreePrivate(path).catch(ignoreRemoved);
      else if (entry.isFile()) await chmod(path, OWNER_ONLY_FILE).catch(ignoreRemoved);
    }),
  );
}

/** PostgreSQL removes files as it runs (old WAL segments, temporary files): one gone meanwhile needs nothing. */
function ignoreRemoved(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}

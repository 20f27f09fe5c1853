import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { access, mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { projectPath } from "../app/server/project-path.server.ts";

const MIGRATIONS = projectPath("drizzle");

/** What an empty migrated database depends on: PGlite's and drizzle's versions, and the project's migrations. */
async function dumpName(): Promise<string> {
  const hash = createHash("sha256");
  for (const dependency of ["@electric-sql/pglite", "drizzle-orm"]) {
    const manifest = projectPath("node_modules", dependency, "package.json");
    hash.update((JSON.parse(await readFile(manifest, "utf8")) as { version: string }).version);
  }
  const files = (await readdir(MIGRATIONS)).filter((file) => file.endsWith(".sql")).sort();
  for (const file of [...files, join("meta", "_journal.json")]) {
    hash.update(file).update(await readFile(join(MIGRATIONS, file)));
  }
  return `migrated-database-${hash.digest("hex").slice(0, 16)}.tar`;
}

/**
 * A dump of an empty embedded database with the project's migrations: the tests' new databases, and the folders of
 * the servers they start, are made from it. PostgreSQL's initdb and every migration cost seconds of CPU each time: a
 * server started on a new folder took 16-17 s of CPU to be ready here, one on a folder made from the dump 5 s. It is
 * made once and kept in node_modules/.cache, under a name that changes with PGlite's and drizzle's versions and the
 * migrations. How a server creates a folder itself has tests of its own (pglite-thread.server.test.ts).
 */
export async function migratedDatabaseDump(): Promise<string> {
  const folder = projectPath("node_modules", ".cache", "plumbline");
  const path = join(folder, await dumpName());
  if (
    await access(path).then(
      () => true,
      () => false,
    )
  ) {
    return path;
  }
  const database = await PGlite.create({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle({ client: database }), { migrationsFolder: MIGRATIONS });
    const dump = await database.dumpDataDir("none");
    await mkdir(folder, { recursive: true });
    // Written whole and then renamed: a run stopped halfway, or two making it at once, leave no partial dump.
    const partial = `${path}.${process.pid}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, path);
  } finally {
    await database.close();
  }
  return path;
}

/**
 * Makes `dataDir`, which must not exist or be empty, an empty database with the project's migrations: the dump is
 * the data folder's tar file, extracted as it is (loading it into PGlite, which then writes the same files, took
 * about 5 s of CPU more).
 */
export async function makeMigratedFolder(dataDir: string): Promise<void> {
  const dump = await migratedDatabaseDump();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await promisify(execFile)("tar", ["--extract", "--file", dump, "--directory", dataDir]);
}

// `node --import tsx tooling/migrated-database.ts DIR`: the browser tests' servers start on folders made so.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("Usage: node --import tsx tooling/migrated-database.ts DATA_DIR");
  await makeMigratedFolder(dataDir);
}

import { lstatSync } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startServer } from "~/server/start-server.server.ts";
import { testEnv } from "../../tooling/local-services.ts";

// A first start here creates its folder as a server does, not from the tests' migrated dump: the files to check
// are the ones that creation writes.
vi.unmock("~/server/db/pglite-thread.server.ts");

/** Every folder and file under `root` whose mode lets anyone but the owner in, as "mode path". */
async function openToOthers(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (path: string) => {
    const stats = await lstat(path);
    if (stats.mode & 0o077) found.push(`${(stats.mode & 0o777).toString(8)} ${path}`);
    if (stats.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return found;
}

describe("the data folder", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "plumbline-private-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test("is owner-only on first start: the database, its files, the session key, the lock and the socket", async () => {
    const dataFolder = join(root, "fresh");
    const running = await startServer(testEnv({ PGLITE_DATA_DIR: join(dataFolder, "pglite") }));
    try {
      expect((await readdir(join(dataFolder, "pglite"))).length).toBeGreaterThan(10);
      expect((await readdir(dataFolder)).sort()).toEqual([
        "pglite",
        "pglite.lock",
        "pglite.sock",
        "session-secret",
        "vapid-keys.json",
      ]);
      expect(await openToOthers(dataFolder)).toEqual([]);
    } finally {
      await running.close();
    }
    // Files the database wrote while it ran are owner-only once it has closed.
    expect(await openToOthers(dataFolder)).toEqual([]);
  });

  test("of an install made before this rule is made owner-only on the next start", async () => {
    const dataFolder = join(root, "older");
    const first = await startServer(testEnv({ PGLITE_DATA_DIR: join(dataFolder, "pglite") }));
    await first.close();
    // As PGlite and mkdir left an older install: folders 0755, files 0666.
    const loosen = async (path: string) => {
      const stats = await lstat(path);
      await chmod(path, stats.isDirectory() ? 0o755 : 0o666);
      if (stats.isDirectory()) for (const name of await readdir(path)) await loosen(join(path, name));
    };
    await loosen(dataFolder);
    await mkdir(join(dataFolder, "pglite", "stray"), { mode: 0o777 });
    await writeFile(join(dataFolder, "pglite", "stray", "file"), "x", { mode: 0o666 });
    expect((await openToOthers(dataFolder)).length).toBeGreaterThan(100);

    const second = await startServer(testEnv({ PGLITE_DATA_DIR: join(dataFolder, "pglite") }));
    try {
      expect(await openToOthers(dataFolder)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  test("the command socket is owner-only from the moment it exists", async () => {
    const dataFolder = join(root, "socket");
    // A shared data folder (sticky, like /tmp) is left as it is, so the socket must protect itself.
    await mkdir(dataFolder);
    await chmod(dataFolder, 0o1755);
    const socketPath = join(dataFolder, "pglite.sock");
    // Whatever path the server binds, its mode is read at once, before any later chmod could run.
    const modesWhenBound: string[] = [];
    const listen = Server.prototype.listen;
    const spy = vi.spyOn(Server.prototype, "listen").mockImplementation(function (this: Server, ...args: unknown[]) {
      const result = (listen as (...a: unknown[]) => Server).apply(this, args);
      if (typeof args[0] === "string") {
        const bound = args[0];
        const mode = lstatSync(bound).mode & 0o777;
        const folder = lstatSync(join(bound, "..")).mode & 0o777;
        modesWhenBound.push(`${mode.toString(8)} in ${folder.toString(8)}`);
      }
      return result;
    });
    let running: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      running = await startServer(testEnv({ PGLITE_DATA_DIR: join(dataFolder, "pglite") }));
    } finally {
      spy.mockRestore();
    }
    try {
      expect(modesWhenBound).toHaveLength(1);
      // Reachable by others neither through its own mode nor through its folder's.
      const [socketMode, folderMode] = modesWhenBound[0]!.split(" in ").map((mode) => Number.parseInt(mode, 8));
      expect((socketMode! & 0o077) === 0 || (folderMode! & 0o077) === 0, modesWhenBound[0]).toBe(true);
      expect((await lstat(socketPath)).mode & 0o777).toBe(0o600);
    } finally {
      await running?.close();
    }
  });
});

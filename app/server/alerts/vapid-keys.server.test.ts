import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { loadVapidKeys } from "./vapid-keys.server.ts";

describe("VAPID keys", () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test("without settings, a pair is generated on first start into the data folder, owner-only, and kept", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "plumbline-vapid-"));
    const settings = { publicKey: undefined, privateKey: undefined, pgliteDataDir: join(dataDir, "pglite") };
    const first = await loadVapidKeys(settings);
    expect(Buffer.from(first.publicKey, "base64url")).toHaveLength(65);
    expect((await stat(join(dataDir, "vapid-keys.json"))).mode & 0o777).toBe(0o600);
    expect(await loadVapidKeys(settings)).toEqual(first);
  });

  test("keys from the settings are used as they are", async () => {
    const keys = { publicKey: "B".repeat(87), privateKey: "p".repeat(43) };
    expect(await loadVapidKeys({ ...keys, pgliteDataDir: "./nowhere/pglite" })).toEqual(keys);
  });
});

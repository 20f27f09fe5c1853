import { resolve } from "node:path";
import { expect, test } from "vitest";
import { env } from "~/config/env.server.ts";
import { writtenByTheServer } from "./front-end.server.ts";

test("npm run dev's watcher leaves alone what the server writes, and watches the app", () => {
  const ignored = writtenByTheServer({
    ...env,
    PGLITE_DATA_DIR: "./data/pglite",
    OUTBOX_DIR: "./data/outbox",
    BACKUP_DIR: "/var/backups/plumbline",
  });
  for (const path of [
    "data/outbox/0b6c.eml",
    "data/pglite/base/1/2619",
    "data/pglite.lock",
    "data/pglite.sock",
    "/var/backups/plumbline/plumbline-2026-11-26.pglite.gz",
  ]) {
    expect(ignored(resolve(path)), path).toBe(true);
  }
  for (const path of ["app/root.tsx", "app/routes/contact.tsx", "data/outbox-notes.md", "vite.config.ts"]) {
    expect(ignored(resolve(path)), path).toBe(false);
  }
});

test("an embedded database in memory has no folder to leave alone", () => {
  const ignored = writtenByTheServer({ ...env, PGLITE_DATA_DIR: "memory://", OUTBOX_DIR: "./data/outbox" });
  expect(ignored(resolve("data/pglite/base/1/2619"))).toBe(false);
  expect(ignored(resolve("data/outbox/a.eml"))).toBe(true);
});

import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { apiKeys, API_SCOPES, type ApiScope } from "./schema.server.ts";

/** API keys: made in the console (shown once), kept as hashes, checked on every API request, revoked for good. */

const KEY_PREFIX = "plk_";
const KEY_PATTERN = /^plk_[A-Za-z0-9_-]{43}$/;
const NAME_MAX_LENGTH = 80;
/** Last use is written at most this often per key: an API client's page-through is not a write per page. */
const TOUCH_AFTER_MS = 60_000;

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

export type NewKeyForm = { ok: true; name: string; scopes: ApiScope[] } | { ok: false; error: string };

/** "Create key": a name (one line, 1–80 characters) and at least one scope. */
export function validateNewKey(form: FormData): NewKeyForm {
  const name = String(form.get("name") ?? "").trim();
  if (name === "" || name.length > NAME_MAX_LENGTH || /[\p{Cc}]/u.test(name)) {
    return { ok: false, error: `Name the key (one line, at most ${NAME_MAX_LENGTH} characters), such as "Zapier".` };
  }
  const scopes = API_SCOPES.filter((scope) => form.getAll("scopes").includes(scope));
  if (scopes.length === 0) return { ok: false, error: "Choose what the key may read." };
  return { ok: true, name, scopes };
}

/** Makes a key; the key itself is returned this once and never stored. */
export async function createApiKey(db: Database, input: { name: string; scopes: ApiScope[]; by: string }) {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  await db
    .insert(apiKeys)
    .values({ name: input.name, scopes: input.scopes, createdBy: input.by, keyHash: hashOf(key) });
  return key;
}

export function listApiKeys(db: Database) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      createdBy: apiKeys.createdBy,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .orderBy(desc(apiKeys.createdAt));
}

/** "Revoke": the key stops working at once, for good. False when no live key has that id. */
export async function revokeApiKey(db: Database, id: string): Promise<boolean> {
  if (!isRowId(id)) return false;
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length > 0;
}

/** The live key an `Authorization: Bearer …` header carries, with its scopes; null for anything else. */
export async function keyOfAuthorization(
  db: Database,
  authorization: string | undefined,
): Promise<{ id: string; scopes: string[] } | null> {
  const key = /^Bearer (\S+)$/i.exec(authorization ?? "")?.[1];
  if (!key || !KEY_PATTERN.test(key)) return null;
  const [found] = await db
    .select({ id: apiKeys.id, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashOf(key)), isNull(apiKeys.revokedAt)));
  if (!found) return null;
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, found.id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`)),
        ),
      );
  }
  return { id: found.id, scopes: found.scopes };
}

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database, RunStatement } from "../db/index.server.ts";
import { countHitCte, limitResult } from "../limits/index.server.ts";
import { createDownload, type ConversionSources } from "./downloads.server.ts";
import { adPlatforms, type AdPlatform } from "./conversion-rows.server.ts";
import { scheduledFetches } from "./schema.server.ts";

/**
 * Scheduled fetches: Google Ads (Uploads → Schedules) and Microsoft Advertising (scheduled offline conversion imports)
 * fetch their conversions file from a URL themselves, with a username and password (HTTP Basic). Each fetch is a
 * download like the console's: the conversions no earlier file for the platform held, stored and listed with the
 * others. Tries are counted per client before the password is checked, so it cannot be guessed fast.
 */

/** Fetches, right or wrong, per client and window; a platform fetches once a day or so. */
const FETCHES_PER_WINDOW = 20;
const WINDOW_SECONDS = 3_600;

const hashOf = (password: string) => createHash("sha256").update(password).digest();

/** The URL a platform's scheduler fetches. */
const scheduledFetchPath = (platform: AdPlatform) => `/conversions/scheduled/${platform}.csv`;

/** The platforms' credentials as the console lists them: the username and when the password was made; never it. */
export async function scheduledFetchCredentials(db: Database) {
  const rows = await db
    .select({
      platform: scheduledFetches.platform,
      username: scheduledFetches.username,
      rolledAt: scheduledFetches.rolledAt,
    })
    .from(scheduledFetches);
  return adPlatforms.map((platform) => ({
    platform,
    path: scheduledFetchPath(platform),
    credentials: rows.find((row) => row.platform === platform) ?? null,
  }));
}

/**
 * "Make a username and password" or "Roll password": a new password (the old one stops working at once), returned
 * this once. The username stays once made.
 */
export async function rollScheduledFetchPassword(db: Database, platform: AdPlatform) {
  const password = randomBytes(24).toString("base64url");
  const [row] = await db
    .insert(scheduledFetches)
    .values({
      platform,
      username: `${platform}-${randomBytes(4).toString("hex")}`,
      passwordHash: hashOf(password).toString("hex"),
    })
    .onConflictDoUpdate({
      target: scheduledFetches.platform,
      set: { passwordHash: hashOf(password).toString("hex"), rolledAt: sql`now()` },
    })
    .returning({ username: scheduledFetches.username });
  return { username: row!.username, password };
}

/** The username and password of an `Authorization: Basic …` header, or null. */
function basicCredentials(header: string | null): { username: string; password: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]{1,512})$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const HIT = `WITH ${countHitCte({ key: "$1", windowSeconds: "$2", allowed: "$3" })}
SELECT allowed, seconds_left FROM form_hit`;

export type ScheduledFetch =
  | { kind: "file"; platform: AdPlatform; body: string; createdAt: Date }
  | { kind: "refused" }
  | { kind: "limited"; retryAfterSeconds: number };

/** A platform's fetch: counted, then the credentials checked, then the next file made; nothing said of what was wrong. */
export async function scheduledFetch(
  db: Database,
  run: RunStatement,
  request: { platform: string; authorization: string | null; clientKey: string },
  sources: ConversionSources,
): Promise<ScheduledFetch> {
  const [hit] = await run<{ allowed: boolean; seconds_left: number }>("conversions_fetch_hit", HIT, [
    `conversions-fetch:${request.clientKey}`,
    WINDOW_SECONDS,
    FETCHES_PER_WINDOW,
  ]);
  const limit = limitResult(hit!);
  if (!limit.allowed) return { kind: "limited", retryAfterSeconds: limit.retryAfterSeconds };
  const platform = adPlatforms.find((known) => known === request.platform);
  const given = basicCredentials(request.authorization);
  if (!platform || !given) return { kind: "refused" };
  const [stored] = await db.select().from(scheduledFetches).where(eq(scheduledFetches.platform, platform));
  const right =
    stored !== undefined &&
    given.username === stored.username &&
    timingSafeEqual(hashOf(given.password), Buffer.from(stored.passwordHash, "hex"));
  if (!right) return { kind: "refused" };
  const download = await createDownload(db, platform, sources);
  return { kind: "file", platform, body: download.body, createdAt: download.createdAt };
}

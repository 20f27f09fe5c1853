import type { OpenDatabase } from "../app/server/db/index.server.ts";
import { createReferrals, type Referrals } from "../app/server/partners/index.server.ts";

/** The key the tests' referral links are signed with. */
export const TEST_TOKEN_KEY = "a-test-key-that-signs-referral-links";

/**
 * Referrals as the site makes them, with a test site's settings (Plumbline at plumbline.example, New York, dollars,
 * no texts); `changes` replaces any of them.
 */
export function testReferrals(
  database: Pick<OpenDatabase, "db" | "run">,
  changes: Partial<Parameters<typeof createReferrals>[0]> = {},
): Referrals {
  return createReferrals({
    db: database.db,
    run: database.run,
    tokenKey: TEST_TOKEN_KEY,
    siteUrl: "https://plumbline.example",
    messageIdDomain: "plumbline.example",
    companyName: "Plumbline",
    replyTo: "leads@plumbline.example",
    tokenHours: 24,
    returnWindowDays: 7,
    statementDueDays: 15,
    timeZone: "America/New_York",
    currency: "USD",
    texts: false,
    pageLimit: { perWindow: 1_000, windowSeconds: 600 },
    onQueued: () => undefined,
    ...changes,
  });
}

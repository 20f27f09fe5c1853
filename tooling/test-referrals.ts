import type { OpenDatabase } from "../app/server/db/index.server.ts";
import { createReferrals, sweepReferrals, type Referrals } from "../app/server/partners/index.server.ts";

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

/**
 * The alert sweep's work on referrals, as the server runs it (expired links recorded, offers unanswered after 30
 * minutes alerted): each alert an email to the test site's leads address, with its headline and explanation.
 */
export const sweepTestReferrals = (database: Pick<OpenDatabase, "db" | "run">) =>
  sweepReferrals(database.db, database.run, {
    timeoutMinutes: 30,
    messageIdDomain: "plumbline.example",
    alert: (alert) => ({
      emails: [
        {
          purpose: alert.purpose,
          to: "leads@plumbline.example",
          replyTo: null,
          subject: alert.headline,
          text: alert.explanation,
          html: "",
        },
      ],
      messages: [],
    }),
  });

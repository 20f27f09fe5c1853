import type { Env } from "~/config/env.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { startWeeklyDigest } from "./weekly-digest.server.ts";

/**
 * The weekly digest to LEADS_EMAIL_TO, every Monday from 08:00 in OPERATOR_TIME_ZONE, sent once whatever the number
 * of instances; undefined when DIGEST is off. stop() ends its checks.
 */
export function startDigest(env: Env, database: { db: Database; run: RunStatement }, onQueued: () => void) {
  if (env.DIGEST !== "on") return undefined;
  return startWeeklyDigest(
    database.db,
    database.run,
    {
      timeZone: env.OPERATOR_TIME_ZONE,
      currency: env.CONVERSION_CURRENCY,
      leadsEmailTo: env.LEADS_EMAIL_TO,
      mailFrom: env.MAIL_FROM,
      companyName: env.COMPANY_NAME,
      siteUrl: env.SITE_URL,
    },
    onQueued,
  );
}

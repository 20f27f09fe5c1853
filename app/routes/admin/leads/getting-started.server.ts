import { showsShippedContact } from "~/config/shipped-contact.server.ts";
import { siteConfig } from "~/config/site.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { copyOffMachine } from "~/server/backups/index.server.ts";
import { pricedPartnerExists } from "~/server/partners/index.server.ts";
import type { AppServices } from "~/server/services.server.ts";

/** Each step of a new install, done or not, as the site's settings and data say. */
export interface GettingStartedState {
  /** Visitors see the operator's company name and phone number, not the shipped ones. */
  companyAndPhone: boolean;
  /** An active partner would be charged a fee for a referral or a call. */
  partnerAndFees: boolean;
  /** Twilio is set up (call tracking is on). */
  twilio: boolean;
  /** A verified backup was downloaded in the last week; when the last one was, in the operator's zone. */
  backupsOffMachine: { done: boolean; lastDownloadedAt: string | null };
}

/** What the empty inbox's "Getting started" ticks: the built site's settings, two cheap reads, and Twilio's client. */
export async function gettingStarted(
  services: Pick<AppServices, "db" | "calls">,
  timeZone: string,
): Promise<GettingStartedState> {
  const [partnerAndFees, copy] = await Promise.all([pricedPartnerExists(services.db), copyOffMachine(services.db)]);
  return {
    companyAndPhone: !showsShippedContact(siteConfig),
    partnerAndFees,
    twilio: services.calls !== undefined,
    backupsOffMachine: {
      done: copy?.current ?? false,
      lastDownloadedAt: copy ? formatTime(copy.downloadedAt, timeZone) : null,
    },
  };
}

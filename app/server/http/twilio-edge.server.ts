import { createHmac } from "node:crypto";
import type { Env } from "~/config/env.server.ts";
import { createCallDisputes, type CallDisputes } from "../calls/index.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { messageIdDomain } from "../outbox/index.server.ts";
import {
  callablePartners,
  findPartner,
  partnerLinkKey,
  referralToken,
  routeCallsOn,
  textableNumber,
  verifyReferralToken,
} from "../partners/index.server.ts";
import type { Texts } from "../texts/index.server.ts";
import type { TwilioClient } from "../twilio/index.server.ts";
import { callWebhooks, type CallWebhookSettings } from "./call-webhooks.server.ts";
import { textWebhooks } from "./text-webhooks.server.ts";
import { numberEndpoint } from "./tracking-number-endpoint.server.ts";

/** Call tracking, when Twilio is configured: its webhooks, the per-visit number endpoint and its REST client. */
export interface CallTracking {
  webhooks: ReturnType<typeof callWebhooks>;
  numberEndpoint: ReturnType<typeof numberEndpoint>;
  twilio: TwilioClient;
  /** Partners' disputes of charged calls, by the signed link in the email after the call. */
  disputes: CallDisputes;
}

/** Texts with customers, when Twilio and TWILIO_FROM_NUMBER are configured: the threads and Twilio's webhooks. */
export interface TextMessaging extends Texts {
  webhooks: ReturnType<typeof textWebhooks>;
}

/**
 * Call tracking's edge, when Twilio is configured and CALL_FORWARD_TO set: Twilio's signed voice webhooks (calls
 * forwarded, or routed to partners when the Partners page says so; recorded if CALL_RECORDING; missed calls emailed),
 * partners' disputes of charged calls, and the endpoint that holds a tracking number from CALL_TRACKING_POOL for a
 * visit. Undefined otherwise, and the site keeps its one number.
 */
export function callTrackingFromSettings(
  env: Env,
  database: { db: Database; run: RunStatement },
  options: {
    twilio: TwilioClient | undefined;
    sessionSecret: string;
    /** Partners are also told of a call by text (the "sms" channel is configured). */
    texts: boolean;
    /** Called once a partner's notice of a call is queued, so the outbox sends it now. */
    onNoticeQueued: () => void;
  } & Pick<CallWebhookSettings, "onEmailQueued" | "onWebhooksQueued" | "onMissedCall">,
): CallTracking | undefined {
  const { twilio } = options;
  if (!twilio || !env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN || !env.CALL_FORWARD_TO) return undefined;
  const { db, run } = database;
  const linkKey = partnerLinkKey(options.sessionSecret);
  return {
    twilio,
    webhooks: callWebhooks(run, {
      siteUrl: env.SITE_URL,
      authToken: env.TWILIO_AUTH_TOKEN,
      forwardTo: env.CALL_FORWARD_TO,
      recording: env.CALL_RECORDING === "on",
      siteNumber: env.PHONE_E164,
      pool: env.CALL_TRACKING_POOL,
      missedCallEmail: {
        leadsEmailTo: env.LEADS_EMAIL_TO,
        siteUrl: env.SITE_URL,
        timeZone: env.OPERATOR_TIME_ZONE,
        messageIdDomain: messageIdDomain(env.MAIL_FROM),
      },
      onEmailQueued: options.onEmailQueued,
      onWebhooksQueued: options.onWebhooksQueued,
      onMissedCall: options.onMissedCall,
      routing: {
        partners: {
          routingOn: () => routeCallsOn(db),
          available: async (zip, service) =>
            (await callablePartners(run, { zip, service, at: new Date(), timeZone: env.OPERATOR_TIME_ZONE })).map(
              ({ callFeeMinor, ...partner }) => ({ ...partner, feeMinor: callFeeMinor }),
            ),
          contact: async (partnerId) => {
            const partner = await findPartner(db, partnerId);
            return partner && { name: partner.name, email: partner.email, textTo: textableNumber(partner.phone) };
          },
          disputeLink: (callId) => `${env.SITE_URL}/d/${referralToken(linkKey, callId, "call-dispute")}`,
        },
        settings: {
          companyName: env.COMPANY_NAME,
          askZip: env.CALL_ASK_ZIP === "on",
          ringSeconds: env.CALL_PARTNER_RING_SECONDS,
          treeSize: env.CALL_RING_TREE_SIZE,
          billableSeconds: env.BILLABLE_CALL_SECONDS,
          repeatCallerDays: env.REPEAT_CALLER_DAYS,
          returnWindowDays: env.RETURN_WINDOW_DAYS,
          timeZone: env.OPERATOR_TIME_ZONE,
          currency: env.CONVERSION_CURRENCY,
          messageIdDomain: messageIdDomain(env.MAIL_FROM),
          texts: options.texts,
        },
        onNoticeQueued: options.onNoticeQueued,
      },
    }),
    disputes: createCallDisputes({
      db,
      run,
      verify: (token) => verifyReferralToken(linkKey, token, "call-dispute"),
      currency: env.CONVERSION_CURRENCY,
      timeZone: env.OPERATOR_TIME_ZONE,
      returnWindowDays: env.RETURN_WINDOW_DAYS,
    }),
    numberEndpoint: numberEndpoint(run, {
      pool: env.CALL_TRACKING_POOL,
      clientKeySecret: createHmac("sha256", options.sessionSecret).update("number hold clients").digest("hex"),
      displayTemplate: env.PHONE_DISPLAY,
    }),
  };
}

/** Texts with customers and Twilio's signed webhooks for incoming texts and their delivery states. */
export function textMessagingFromSettings(env: Env, texts: Texts | undefined): TextMessaging | undefined {
  if (!texts || !env.TWILIO_AUTH_TOKEN) return undefined;
  return { ...texts, webhooks: textWebhooks(texts, { siteUrl: env.SITE_URL, authToken: env.TWILIO_AUTH_TOKEN }) };
}

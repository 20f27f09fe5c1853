import { existsSync } from "node:fs";
import { z } from "zod";
import type { PublicSiteConfig } from "./site.ts";

/**
 * The only reader of process.env. Every operator setting is parsed and validated here once;
 * a bad value stops the build or the start with a message naming the setting.
 * Each key is documented in .env.example.
 */

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !/[\r\n]/.test(value), "must be a single line");

/** A lookup service's URL, or `off` to skip that source. */
const lookupUrl = (defaultUrl: string) =>
  z
    .string()
    .trim()
    .default(defaultUrl)
    .transform((value) => (value.toLowerCase() === "off" ? undefined : value))
    .pipe(z.url({ protocol: /^https?$/ }).optional());

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const e164 = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, "must be E.164, like +18005550199");

/** A comma-separated list; spaces around the items and empty items are ignored. */
const commaList = z
  .string()
  .trim()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

const flag = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

export const envSchema = z.object({
  PHONE_DISPLAY: singleLine(40).default("1-800-555-0199"),
  PHONE_E164: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "must be E.164, like +18005550199")
    .default("+18005550199"),
  COMPANY_NAME: singleLine(80).default("Plumbline"),
  BANNER_TEXT: singleLine(80).default("We Are Available Now"),
  LEGAL_OPERATOR_NAME: singleLine(120).default("Plumbline Media B.V."),
  LEGAL_OPERATOR_ADDRESS: singleLine(200).default("Keizersgracht 100, 1015 AA Amsterdam, the Netherlands"),
  LEGAL_OPERATOR_EMAIL: z.email().default("privacy@plumbline.example"),
  GA4_MEASUREMENT_ID: z
    .string()
    .trim()
    .regex(/^(G-[A-Z0-9]{4,20})?$/, "must look like G-XXXXXXX, or be empty")
    .default(""),
  // Unset: the address the server listens on (see siteUrlOrListenAddress).
  SITE_URL: z
    .url({ protocol: /^https?$/ })
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  CONTACT_CONSENT_TEXT: singleLine(600).default(
    "By submitting this form, you agree that we and our partner plumbers may contact you at the phone number and email you provided about your request, including by calls and text messages. Consent is not a condition of any purchase. Message and data rates may apply.",
  ),
  GEO_REVERSE_URL: lookupUrl("https://api.bigdatacloud.net/data/reverse-geocode-client"),
  GEO_IP_URL: lookupUrl("https://ipapi.co/json/"),
  GEO_PROMPT_ON_LOAD: flag.default(false),

  // Where `npm run build` writes the site and the server reads it, relative to the project.
  BUILD_DIR: z.string().trim().min(1).default("build"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  // Express's "trust proxy": a hop count, true, or addresses/subnets/names such as "loopback".
  TRUST_PROXY: z
    .string()
    .trim()
    .transform((value): boolean | number | string =>
      value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value,
    )
    .default(false),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  PGLITE_DATA_DIR: z.string().trim().min(1).default("./data/pglite"),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  OUTBOX_DIR: z.string().trim().min(1).default("./data/outbox"),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().trim().min(3).default("Plumbline <no-reply@plumbline.example>"),
  LEADS_EMAIL_TO: z.email().default("leads@plumbline.example"),
  ALLOWED_ORIGINS: commaList.pipe(
    z.array(z.url({ protocol: /^https?$/ }).transform((origin) => new URL(origin).origin)),
  ),
  FORM_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).default(2_000),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(10).default(10_000),
  OUTBOX_RETRY_MAX_MS: z.coerce.number().int().min(10).default(900_000),
  POST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  ANALYTICS_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
  ANALYTICS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  // The console and the emails show times, count days left and the dashboard's days in this zone, whatever the server's own is.
  OPERATOR_TIME_ZONE: z
    .string()
    .trim()
    .default("America/New_York")
    .refine(isTimeZone, "must be an IANA time zone, like America/New_York"),
  // Signs console session ids. Unset: generated once and kept in the data folder.
  SESSION_SECRET: z.string().trim().min(32, "must be at least 32 characters").optional(),
  // Every operator must turn on two-step sign-in (a code from an authenticator app) before using the console.
  REQUIRE_TWO_STEP: flag.default(false),
  // Webhook endpoints may be http URLs and private or loopback addresses (a receiver on the operator's own network).
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  // Call tracking (Twilio): on only when both the account SID and its auth token are set.
  TWILIO_ACCOUNT_SID: z
    .string()
    .trim()
    .regex(/^AC[0-9a-f]{32}$/i, "must be an account SID, like AC followed by 32 hex digits")
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(16).max(200).optional(),
  // Twilio's REST API; another Twilio-compatible provider's (or a test stand-in's) base URL may replace it.
  TWILIO_API_URL: z
    .url({ protocol: /^https?$/ })
    .default("https://api.twilio.com")
    .transform((value) => value.replace(/\/+$/, "")),
  CALL_FORWARD_TO: e164.optional(),
  CALL_TRACKING_POOL: commaList.pipe(z.array(e164).max(500)),
  CALL_RECORDING: z.enum(["off", "on"]).default("off"),
  // Calls routed to partners (with "Route calls to partners" on, on the Partners page): the caller is asked for
  // their ZIP code; each partner rings this long; at most this many partners are tried before CALL_FORWARD_TO.
  CALL_ASK_ZIP: z.enum(["off", "on"]).default("off"),
  CALL_PARTNER_RING_SECONDS: z.coerce.number().int().min(5).max(40).default(15),
  CALL_RING_TREE_SIZE: z.coerce.number().int().min(1).max(5).default(3),
  // A partner's call is charged when it lasted this long, and not again for the same caller within these days.
  BILLABLE_CALL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  REPEAT_CALLER_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  // Texts with customers (when TWILIO_FROM_NUMBER is set): the missed-call text-back, and quiet hours
  // (21:00–08:00 in OPERATOR_TIME_ZONE) for automatic texts.
  MISSED_CALL_TEXT: z.enum(["on", "off"]).default("on"),
  // At most this many text-backs an hour across all callers (a caller ID can be spoofed); past it, the operator
  // is emailed once and callers get no text until the hour's count falls.
  MISSED_CALL_TEXT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
  TEXT_QUIET_HOURS: z.enum(["on", "off"]).default("on"),
  // Alerts: a lead still New and unopened after this many minutes is escalated once (email, and a text).
  ALERT_ESCALATE_MINUTES: z.coerce.number().int().min(1).max(1_440).default(5),
  ALERT_SMS_TO: e164.optional(),
  // Text messages (alerts, referral offers) are sent from this Twilio number; unset, texts are off.
  TWILIO_FROM_NUMBER: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "must be E.164, like +15555550123")
    .optional(),
  // Web Push to operators' devices: the VAPID key pair (base64url, as web-push generates it) and a contact
  // for push services. Unset keys: generated on first start and kept in the data folder.
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{80,90}$/, "must be a base64url P-256 public key")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, "must be a base64url P-256 private key")
    .optional(),
  // A push endpoint on this machine or a private network (development and tests only).
  PUSH_ALLOW_PRIVATE: flag.default(false),
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:|https:\/\/)\S+$/, "must be a mailto: or https: address")
    .optional(),
  // Referrals: how long a partner's link works, and how long partners have before the operator is alerted.
  REFERRAL_TOKEN_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  // Requests per minute per API key to the read API (/api/v1).
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  // After accepting a referral, the partner may return the lead for a credit for this many days.
  RETURN_WINDOW_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  // A partner's monthly statement is due this many days after it is issued.
  STATEMENT_DUE_DAYS: z.coerce.number().int().min(0).max(90).default(15),
  REFERRAL_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(1_440).default(30),
  // The currency of conversion values and ad spend, as an ISO 4217 code the ad platforms accept.
  CONVERSION_CURRENCY: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "must be a three-letter currency code, like USD")
    .default("USD"),
  // The weekly digest email (Monday 08:00 in OPERATOR_TIME_ZONE): "on" or "off".
  DIGEST: z.enum(["on", "off"]).default("on"),
  // Daily backups at BACKUP_TIME (HH:MM in OPERATOR_TIME_ZONE) into BACKUP_DIR: "on" or "off".
  BACKUP_SCHEDULE: z.enum(["on", "off"]).default("on"),
  BACKUP_DIR: z.string().trim().min(1).default("./data/backups"),
  BACKUP_TIME: z
    .string()
    .trim()
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, "BACKUP_TIME is HH:MM, like 03:30")
    .default("03:30"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = Omit<z.infer<typeof envSchema>, "SITE_URL"> & {
  /** The public URL every link, callback and signature uses: SITE_URL, or the address the server listens on. */
  SITE_URL: string;
  /** What the start should say once about SITE_URL: where links point when it is unset, or what a wrong one breaks. */
  siteUrlNotice: { level: "info" | "warn"; message: string } | undefined;
  /** SITE_URL as set; unset, SITE_URL follows the port the server listens on (listeningOn). */
  configuredSiteUrl: string | undefined;
  /** NODE_ENV is production, where an unset or loopback SITE_URL on an open HOST is a warning. */
  production: boolean;
};

const ANY_ADDRESS = new Set(["0.0.0.0", "::", "[::]"]);
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;

/** The address the server listens on, as a URL: HOST unless it means every address, then localhost. */
function listenAddressUrl(host: string, port: number): string {
  const name = ANY_ADDRESS.has(host) ? "localhost" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * SITE_URL unset works on this machine: links use the address the server listens on. In production, a server
 * listening beyond loopback with no public SITE_URL sends partners, customers and Twilio to an address only this
 * machine can reach, so the start says so.
 */
function siteUrlOrListenAddress(
  parsed: Pick<z.infer<typeof envSchema>, "SITE_URL" | "HOST" | "PORT">,
  production: boolean,
): Pick<Env, "SITE_URL" | "siteUrlNotice"> {
  const siteUrl = parsed.SITE_URL ?? listenAddressUrl(parsed.HOST, parsed.PORT);
  const loopbackSiteUrl = LOOPBACK_HOST.test(new URL(siteUrl).hostname);
  if (production && loopbackSiteUrl && !LOOPBACK_HOST.test(parsed.HOST)) {
    return {
      SITE_URL: siteUrl,
      siteUrlNotice: {
        level: "warn",
        message:
          `SITE_URL is ${parsed.SITE_URL ? siteUrl : `not set (so ${siteUrl})`} while the server listens on ${parsed.HOST} for other ` +
          "machines: partners' offer and statement links, links in emails, the sitemap and canonical links point at " +
          "an address only this machine can reach, and Twilio's callbacks and their signatures fail. Set SITE_URL " +
          "to the site's public https address.",
      },
    };
  }
  return {
    SITE_URL: siteUrl,
    siteUrlNotice: parsed.SITE_URL
      ? undefined
      : {
          level: "info",
          message: `SITE_URL is not set: links and callbacks use ${siteUrl}, where this server listens.`,
        },
  };
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "not set" so that a blank line in .env keeps the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new Error(`Invalid operator configuration (see .env.example):\n${problems}`);
  }
  const production = source.NODE_ENV === "production";
  const env: Env = {
    ...result.data,
    ...siteUrlOrListenAddress(result.data, production),
    configuredSiteUrl: result.data.SITE_URL,
    production,
  };
  // The alert that no partner has answered comes while their links still work, so that one still can.
  if (env.REFERRAL_TIMEOUT_MINUTES >= env.REFERRAL_TOKEN_HOURS * 60) {
    throw new Error(
      "Invalid operator configuration (see .env.example):\n  REFERRAL_TIMEOUT_MINUTES: must be shorter than REFERRAL_TOKEN_HOURS",
    );
  }
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && !env.CALL_FORWARD_TO) {
    throw new Error(
      "Invalid operator configuration (see .env.example):\n  CALL_FORWARD_TO: must be set when call tracking is on",
    );
  }
  return env;
}

/**
 * The settings once the server listens on `port`: with PORT 0 the system chose it, and an unset SITE_URL (its links,
 * callbacks and what the start says about it) is the address the server actually listens on.
 */
export function listeningOn(env: Env, port: number): Env {
  return {
    ...env,
    PORT: port,
    ...siteUrlOrListenAddress({ SITE_URL: env.configuredSiteUrl, HOST: env.HOST, PORT: port }, env.production),
  };
}

/**
 * The folder of the embedded database when it holds the site's data: no DATABASE_URL, and not in memory. Its server
 * answers command lines on a socket beside it, and its lock says which process has it open.
 */
export function embeddedDatabaseFolder(source: Pick<Env, "DATABASE_URL" | "PGLITE_DATA_DIR">): string | undefined {
  return source.DATABASE_URL || source.PGLITE_DATA_DIR.startsWith("memory://") ? undefined : source.PGLITE_DATA_DIR;
}

// A .env file in the working directory fills in settings the environment doesn't already have.
if (existsSync(".env")) process.loadEnvFile(".env");

export const env: Env = parseEnv(process.env);

/** The operator settings that may reach the browser. Nothing secret belongs here. */
export function toPublicSiteConfig(source: Env): PublicSiteConfig {
  return {
    phone: { display: source.PHONE_DISPLAY, e164: source.PHONE_E164 },
    companyName: source.COMPANY_NAME,
    bannerText: source.BANNER_TEXT,
    legalOperator: {
      name: source.LEGAL_OPERATOR_NAME,
      address: source.LEGAL_OPERATOR_ADDRESS,
      email: source.LEGAL_OPERATOR_EMAIL,
    },
    ga4MeasurementId: source.GA4_MEASUREMENT_ID || undefined,
    siteUrl: source.SITE_URL,
    contactConsentText: source.CONTACT_CONSENT_TEXT,
    geolocation: {
      reverseGeocodeUrl: source.GEO_REVERSE_URL,
      ipLookupUrl: source.GEO_IP_URL,
      promptOnLoad: source.GEO_PROMPT_ON_LOAD,
    },
    // Present only when a visit can be given a tracking number, so that pages without call tracking stay as they were.
    ...(source.TWILIO_ACCOUNT_SID && source.TWILIO_AUTH_TOKEN && source.CALL_TRACKING_POOL.length > 0
      ? { callTracking: true as const }
      : {}),
  };
}

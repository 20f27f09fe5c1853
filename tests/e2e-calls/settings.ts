import { e2ePort } from "../e2e-server.ts";
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN } from "../twilio-stand-in.ts";

/**
 * The call-tracking browser tests' own server: built with a pool (public settings are compiled into the pages),
 * in its own build folder and database, on the port after the other browser tests' server, so that those still
 * see a site without call tracking.
 */
const callsPort = e2ePort + 1;
export const callsSiteUrl = `http://localhost:${callsPort}`;
export const callsPgliteDir = `test-results/pglite-calls-${e2ePort}`;
export const SITE_NUMBER = { e164: "+18005550199", display: "1-800-555-0199" };
export const POOL = ["+18005550111", "+18005550112", "+18005550113", "+18005550114"];
export const FORWARD_TO = "+15550100200";
const TEXT_FROM = "+18005550100";
/** The Twilio stand-in's REST API, started by the tests that send texts. */
export const twilioStandInPort = e2ePort + 1000;

export const callsServerEnv = {
  NODE_ENV: "production",
  PORT: String(callsPort),
  HOST: "127.0.0.1",
  SITE_URL: callsSiteUrl,
  BUILD_DIR: `test-results/build-calls-${e2ePort}`,
  PGLITE_DATA_DIR: callsPgliteDir,
  OUTBOX_DIR: "test-results/outbox-calls",
  BACKUP_SCHEDULE: "off",
  TRUST_PROXY: "loopback",
  POST_RATE_LIMIT_PER_MINUTE: "1000",
  ANALYTICS_RATE_LIMIT_PER_MINUTE: "100000",
  PHONE_E164: SITE_NUMBER.e164,
  PHONE_DISPLAY: SITE_NUMBER.display,
  TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN,
  // Texts go to the stand-in when a test has started it; nothing here fetches recordings.
  TWILIO_API_URL: `http://127.0.0.1:${twilioStandInPort}`,
  TWILIO_FROM_NUMBER: TEXT_FROM,
  // Texts by hand go at once whatever the hour the tests run at (quiet hours have their own integration test).
  TEXT_QUIET_HOURS: "off",
  CALL_FORWARD_TO: FORWARD_TO,
  CALL_TRACKING_POOL: POOL.join(","),
  CALL_RECORDING: "on",
  // On a Monday the weekly digest would be one more email than a test expects.
  DIGEST: "off",
};

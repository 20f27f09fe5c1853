import { validateRequest } from "twilio/lib/webhooks/webhooks.js";

/**
 * Whether a webhook request really comes from Twilio: its X-Twilio-Signature must be the HMAC Twilio computes
 * with the account's auth token over the public URL it requested (SITE_URL, path and query) and the POSTed
 * form parameters. The twilio package's own check is used.
 */
export function isSignedByTwilio(
  authToken: string,
  signature: string | undefined,
  publicUrl: string,
  params: Record<string, string>,
): boolean {
  if (!signature) return false;
  return validateRequest(authToken, signature, publicUrl, params);
}

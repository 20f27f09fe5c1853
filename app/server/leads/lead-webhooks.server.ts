import { sqlNames } from "../db/index.server.ts";
import { contactRequests } from "./schema.server.ts";

/**
 * A lead as webhooks carry it (documented in the README): the operator chose to send leads to their own system, so
 * it holds the visitor's contact details. A jsonb expression over a row of `contact_requests` named `alias`, with
 * its status given by `status` when the statement changes it.
 */

const c = sqlNames(contactRequests);

const utc = (value: string) => `to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function leadWebhookData(alias: string, status = `${alias}.${c.status}`): string {
  const column = (name: string) => `${alias}.${name}`;
  return `jsonb_build_object(
  'id', ${column(c.id)}, 'received_at', ${utc(column(c.receivedAt))}, 'status', ${status},
  'first_name', ${column(c.firstName)}, 'last_name', ${column(c.lastName)}, 'email', ${column(c.email)},
  'phone', ${column(c.phone)}, 'service', ${column(c.service)}, 'message', ${column(c.message)},
  'zip', ${column(c.zip)}, 'channel', ${column(c.channel)},
  'global_privacy_control', ${column(c.globalPrivacyControl)},
  'attribution', jsonb_build_object(
    'landing_path', ${column(c.landingPath)}, 'referrer_host', ${column(c.referrerHost)},
    'utm_source', ${column(c.utmSource)}, 'utm_medium', ${column(c.utmMedium)},
    'utm_campaign', ${column(c.utmCampaign)}, 'utm_term', ${column(c.utmTerm)}, 'utm_content', ${column(c.utmContent)},
    'gclid', ${column(c.gclid)}, 'gbraid', ${column(c.gbraid)}, 'wbraid', ${column(c.wbraid)},
    'msclkid', ${column(c.msclkid)}, 'fbclid', ${column(c.fbclid)}))`;
}

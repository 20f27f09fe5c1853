import {
  DeliveryRefused,
  messageRow,
  purgeSettledEmails,
  queueMessagesCte,
  type ChannelSender,
} from "../outbox/index.server.ts";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import type { TwilioClient } from "../twilio/index.server.ts";
import { MISSED_CALL_PURPOSE } from "./missed-call-email.server.ts";
import { PARTNER_CALL_PURPOSE } from "./partner-call-notice.server.ts";
import { calls } from "./schema.server.ts";

/** Calls are kept as long as leads: the privacy policy keeps lead data at most a year. */
const CALL_RETENTION_DAYS = 365;

/** The outbox channel of calls to Twilio's REST API. */
export const TWILIO_CHANNEL = "twilio";

const c = sqlNames(calls);

/** Calls deleted per statement: each statement is short, so leads and calls arriving meanwhile are never held up long. */
const PURGE_BATCH = 500;

const EXPIRED_RECORDINGS = `SELECT ${c.id} AS id, ${c.recordingSid} AS recording_sid FROM ${c.table}
WHERE ${c.startedAt} < now() - $1 * interval '1 day' ORDER BY ${c.startedAt} LIMIT ${PURGE_BATCH}`;

/** The calls are deleted, and their recordings' deletions queued, together; the queue only if this run deleted them. */
const PURGE = `WITH deleted AS (
  DELETE FROM ${c.table} WHERE ${c.id}::text IN (SELECT jsonb_array_elements_text($1::jsonb)) RETURNING 1
), ${queueMessagesCte({ rows: "$2", from: "(SELECT 1 FROM deleted LIMIT 1) AS deleted_any" })}
SELECT count(*)::int AS deleted FROM deleted`;

interface DeleteRecording {
  action: "delete-recording";
  recordingSid: string;
}

/**
 * Deletes calls older than the retention period, oldest first and PURGE_BATCH a statement, with the missed-call
 * emails and partners' call notices about them; each recording is deleted at Twilio through the outbox, which retries while Twilio is
 * unreachable.
 */
export async function purgeExpiredCalls(run: RunStatement, retentionDays = CALL_RETENTION_DAYS): Promise<number> {
  await purgeSettledEmails(run, MISSED_CALL_PURPOSE, retentionDays);
  await purgeSettledEmails(run, PARTNER_CALL_PURPOSE, retentionDays);
  let purged = 0;
  for (;;) {
    const expired = await run<{ id: string; recording_sid: string | null }>("calls_expired", EXPIRED_RECORDINGS, [
      retentionDays,
    ]);
    if (expired.length === 0) return purged;
    const deletions = expired.flatMap((call) =>
      call.recording_sid
        ? [
            messageRow({
              channel: TWILIO_CHANNEL,
              purpose: "recording_deletion",
              payload: { action: "delete-recording", recordingSid: call.recording_sid } satisfies DeleteRecording,
            }),
          ]
        : [],
    );
    const [result] = await run<{ deleted: number }>("calls_purge", PURGE, [
      JSON.stringify(expired.map((call) => call.id)),
      JSON.stringify(deletions),
    ]);
    purged += result?.deleted ?? 0;
    // Another instance purging at once took some of this batch: it goes on with the rest.
    if (expired.length < PURGE_BATCH || (result?.deleted ?? 0) < expired.length) return purged;
  }
}

/** Delivers the queued calls to Twilio's API (a recording's deletion). */
export function twilioChannel(client: TwilioClient): ChannelSender {
  return async (payload, signal) => {
    const message = payload as Partial<DeleteRecording> | null;
    if (message?.action !== "delete-recording" || typeof message.recordingSid !== "string") {
      throw new DeliveryRefused("not a Twilio request this server knows");
    }
    await client.deleteRecording(message.recordingSid, signal);
  };
}

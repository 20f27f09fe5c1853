import { randomUUID } from "node:crypto";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { isoUtc, queueWebhooksCte } from "../webhooks/index.server.ts";
import { textMessages, textOptOuts } from "./schema.server.ts";

/**
 * A text from a customer, as Twilio posts it: stored on their thread once, however often Twilio posts it, with
 * what its keyword asks for in the same statement: STOP and its synonyms record an opt-out, START and UNSTOP end
 * it, HELP queues one reply; its `text.received` webhooks are queued with it.
 */

const t = sqlNames(textMessages);
const o = sqlNames(textOptOuts);

/** The opt-out words carriers and Twilio honour, in any case, alone in the message. */
const OPT_OUT_WORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE"];
const OPT_IN_WORDS = ["START", "UNSTOP"];
const HELP_WORDS = ["HELP"];

type Keyword = "stop" | "start" | "help" | "none";

/** What a message asks for: a keyword counts only alone in the message (spaces and a final full stop aside). */
function keywordOf(body: string): Keyword {
  const word = body
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  if (OPT_OUT_WORDS.includes(word)) return "stop";
  if (OPT_IN_WORDS.includes(word)) return "start";
  if (HELP_WORDS.includes(word)) return "help";
  return "none";
}

const RECEIVE = `WITH stored AS (
  INSERT INTO ${t.table} (${t.id}, ${t.customer}, ${t.ours}, ${t.direction}, ${t.body}, ${t.status}, ${t.twilioSid},
    ${t.purpose}, ${t.sentAt})
  VALUES ($1, $2, $3, 'in', $4, 'received', $5, 'customer_text', now())
  ON CONFLICT (${t.twilioSid}) DO NOTHING
  RETURNING *
), ${queueWebhooksCte({
  name: "queued_webhooks",
  event: "text.received",
  from: "stored AS text",
  data: `jsonb_build_object('id', text.${t.id}, 'received_at', ${isoUtc(`text.${t.createdAt}`)},
    'from', text.${t.customer}, 'to', text.${t.ours}, 'body', text.${t.body},
    'keyword', CASE WHEN $6::text = 'none' THEN NULL ELSE $6::text END)`,
})}, opted_out AS (
  INSERT INTO ${o.table} (${o.number}) SELECT $2 FROM stored WHERE $6::text = 'stop'
  ON CONFLICT (${o.number}) DO NOTHING
), opted_in AS (
  DELETE FROM ${o.table} WHERE ${o.number} = $2 AND $6::text = 'start' AND EXISTS (SELECT 1 FROM stored)
), reply AS (
  INSERT INTO ${t.table} (${t.id}, ${t.customer}, ${t.ours}, ${t.direction}, ${t.body}, ${t.status}, ${t.purpose})
  SELECT $7, $2, $3, 'out', $8::text, 'queued', 'help_reply' FROM stored
  WHERE $8::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.number} = $2)
  RETURNING 1
)
SELECT (SELECT count(*) FROM stored)::int AS stored, (SELECT count(*) FROM reply)::int AS replies,
  (SELECT count(*) FROM queued_webhooks)::int AS webhooks`;

export interface IncomingText {
  messageSid: string;
  customer: string;
  ours: string;
  body: string;
  /** Set when Twilio's own opt-out handling answered the keyword already (Advanced Opt-Out). */
  answeredByTwilio: boolean;
}

export type ReceivedText =
  { kind: "stored"; keyword: Keyword; replyQueued: boolean; webhooksQueued: boolean } | { kind: "repeat" };

/** Stores a customer's text and does what its keyword asks; the HELP reply is `helpReply`. */
export async function receiveText(run: RunStatement, text: IncomingText, helpReply: string): Promise<ReceivedText> {
  const keyword = keywordOf(text.body);
  const reply = keyword === "help" && !text.answeredByTwilio ? helpReply : null;
  const [result] = await run<{ stored: number; replies: number; webhooks: number }>("texts_receive", RECEIVE, [
    randomUUID(),
    text.customer,
    text.ours,
    text.body,
    text.messageSid,
    keyword,
    randomUUID(),
    reply,
  ]);
  if (!result || result.stored === 0) return { kind: "repeat" };
  return { kind: "stored", keyword, replyQueued: result.replies > 0, webhooksQueued: result.webhooks > 0 };
}

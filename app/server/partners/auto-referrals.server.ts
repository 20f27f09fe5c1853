import { eq, inArray, max } from "drizzle-orm";
import type { Database, RunStatement } from "../db/index.server.ts";
import { sqlNames } from "../db/index.server.ts";
import { emailRow, messageRow, queueEmailsCte, queueMessagesCte } from "../outbox/index.server.ts";
import {
  leadEventRows,
  recentLeadsWithZipSql,
  recordLeadEventsCte,
  referralJob,
  type ReferralJob,
} from "../leads/index.server.ts";
import { knownService } from "~/content/partner-services.ts";
import { availablePartners } from "./available-partners.server.ts";
import { routingSettings } from "./partner-settings.server.ts";
import type { RenderAlert } from "./referral-timeouts.server.ts";
import type { Referrals } from "./referrals.server.ts";
import { autoReferrals, referrals } from "./schema.server.ts";

/**
 * "Refer new leads automatically": a new lead with a ZIP code is offered at once to up to three partners of the
 * first priority available for it (active, not paused, within their hours, serving its ZIP code and service), the
 * one offered a referral longest ago first; if nobody accepts within REFERRAL_TIMEOUT_MINUTES (or all decline),
 * to the next priority. A person who opted out of sharing is never referred by the rules. The lead's history says
 * what the rules did and why, and the operator is alerted when no partner could be offered it or none took it.
 *
 * The rules act after the lead is stored, never in its request: at once when it was stored, and on the sweep for
 * a lead the server stopped before acting on. Each step is claimed in the statement that takes it (a row per
 * lead in `auto_referrals`), so no lead is offered twice by two instances or after a restart.
 */

/** The most partners one step offers a lead to. */
const PARTNERS_PER_STEP = 3;
/** Leads the sweep still refers when the server stopped before it could: those of the last few minutes. */
const CATCH_UP_MINUTES = 10;
/** Who the history says acted. */
const BY = "Automatic referral";

const a = sqlNames(autoReferrals);
const r = sqlNames(referrals);

export interface AutoReferralSettings {
  db: Database;
  run: RunStatement;
  /** The offers themselves: the operator's path, with a claim. */
  referrals: Referrals;
  /** OPERATOR_TIME_ZONE: the partners' hours are read on its clock. */
  timeZone: string;
  /** REFERRAL_TIMEOUT_MINUTES: how long a priority has to accept before the next is offered the lead. */
  timeoutMinutes: number;
  messageIdDomain: string;
  alert: RenderAlert;
  /** Called once alerts are queued, so the outbox sends them now. */
  onQueued(): void;
}

/** The partners of one priority the rules offer a lead to. */
interface Step {
  priority: number;
  partners: { id: string; name: string; email: string; phone: string }[];
}

/**
 * The rules' first step for a lead: it claims the lead, so only one instance ever acts on it. `priority` is the
 * step's (SQL); none, and the rules are done with the lead at once.
 */
const CLAIM_NEW = (priority: string | null) => `claim AS (
  INSERT INTO ${a.table} (${a.contactRequestId}, ${a.priority}, ${a.finishedAt})
  VALUES ($1::uuid, ${priority ?? "NULL"}, ${priority ? "NULL" : "now()"})
  ON CONFLICT (${a.contactRequestId}) DO NOTHING
  RETURNING ${a.contactRequestId} AS lead_id
)`;

/**
 * A later step: claims the lead's step after `$9` (the priority offered before), and marks the offers of that
 * step that were never answered as dealt with, so no "Unanswered referral" alert follows for them.
 */
const CLAIM_NEXT = `claim AS (
  UPDATE ${a.table} SET ${a.priority} = $8, ${a.offeredAt} = now()
  WHERE ${a.contactRequestId} = $1::uuid AND ${a.finishedAt} IS NULL AND ${a.priority} = $9
  RETURNING ${a.contactRequestId} AS lead_id
),
superseded AS (
  UPDATE ${r.table} SET ${r.timeoutAlertedAt} = now()
  WHERE ${r.contactRequestId} IN (SELECT lead_id FROM claim) AND ${r.answeredAt} IS NULL
    AND ${r.timeoutAlertedAt} IS NULL
)`;

/**
 * The rules stop for a lead, with a line in its history and, when asked, an alert: $1 the lead, $2 the events,
 * $3 and $4 the alert's emails and texts. A new lead is claimed by it; a lead already referred is finished.
 */
const finishStatement = (claim: string) => `WITH ${claim},
${recordLeadEventsCte({ name: "history", rows: "$2", when: "claim" })},
claimed AS (SELECT lead_id AS id FROM claim),
${queueEmailsCte({ rows: "$3", request: { column: "contact", from: "claimed" } })},
${queueMessagesCte({ rows: "$4", from: "claimed" })}
SELECT count(*)::int AS finished FROM claim`;

const NOT_REFERRED = finishStatement(CLAIM_NEW(null));

const STOP = finishStatement(`claim AS (
  UPDATE ${a.table} SET ${a.finishedAt} = now()
  WHERE ${a.contactRequestId} = $1::uuid AND ${a.finishedAt} IS NULL AND ${a.priority} IS NOT DISTINCT FROM $5
  RETURNING ${a.contactRequestId} AS lead_id
),
superseded AS (
  UPDATE ${r.table} SET ${r.timeoutAlertedAt} = now()
  WHERE ${r.contactRequestId} IN (SELECT lead_id FROM claim) AND ${r.answeredAt} IS NULL
    AND ${r.timeoutAlertedAt} IS NULL
)`);

/**
 * The leads whose step is over: its time is up, or every offer of it is answered (all declined, or one accepted).
 * A step's offers have links longer-lived than the timeout, so an offer still open is one still waiting.
 */
const FIND_DUE = `SELECT auto.${a.contactRequestId} AS lead_id, auto.${a.priority} AS priority
FROM ${a.table} AS auto
WHERE auto.${a.finishedAt} IS NULL AND (auto.${a.offeredAt} <= now() - $1 * interval '1 minute' OR NOT EXISTS (
  SELECT 1 FROM ${r.table} AS waiting
  WHERE waiting.${r.contactRequestId} = auto.${a.contactRequestId} AND waiting.${r.answer} IS NULL
    AND waiting.${r.expiresAt} > now()))
ORDER BY auto.${a.offeredAt}
LIMIT 50`;

/** New leads with a ZIP code the rules have not acted on: the server stopped between storing and referring them. */
const FIND_MISSED = `SELECT recent.lead_id FROM (${recentLeadsWithZipSql("$1")}) AS recent
WHERE NOT EXISTS (SELECT 1 FROM ${a.table} WHERE ${a.contactRequestId} = recent.lead_id)
ORDER BY recent.received_at
LIMIT 50`;

export function createAutoReferrals(settings: AutoReferralSettings) {
  const { db, run } = settings;

  /** The job as the partners' availability reads it, at this moment or at any hour. */
  const jobAt = (job: ReferralJob & { zip: string }, at: Date | null) => ({
    zip: job.zip,
    service: knownService(job.service),
    at,
    timeZone: settings.timeZone,
  });

  /**
   * The first priority after `after` with partners available now who were not offered the lead yet: up to three
   * of them, the one offered a referral longest ago first (round robin).
   */
  async function nextStep(job: ReferralJob & { zip: string }, after: number, offered: string[]): Promise<Step | null> {
    const available = (await availablePartners(run, jobAt(job, new Date()))).filter(
      (partner) => partner.priority > after && !offered.includes(partner.id),
    );
    const priority = available[0]?.priority;
    if (priority === undefined) return null;
    const tier = available.filter((partner) => partner.priority === priority);
    const lastOffered = new Map(
      (
        await db
          .select({ partnerId: referrals.partnerId, at: max(referrals.offeredAt) })
          .from(referrals)
          .where(
            inArray(
              referrals.partnerId,
              tier.map((partner) => partner.id),
            ),
          )
          .groupBy(referrals.partnerId)
      ).map((row) => [row.partnerId, row.at?.getTime() ?? 0]),
    );
    const turn = (id: string) => lastOffered.get(id) ?? 0;
    const chosen = tier.sort((x, y) => turn(x.id) - turn(y.id)).slice(0, PARTNERS_PER_STEP);
    return {
      priority,
      partners: chosen.map(({ id, name, email, phone }) => ({ id, name, email, phone })),
    };
  }

  /**
   * Why no partner can be offered the job now: "no partner serves 78701 at this hour", or at any hour; after a
   * step, among the later priorities' partners not offered it yet.
   */
  async function nobodyBecause(job: ReferralJob & { zip: string }, after: number, offered: string[]): Promise<string> {
    const service = knownService(job.service);
    const serving = (await availablePartners(run, jobAt(job, null))).filter(
      (partner) => partner.priority > after && !offered.includes(partner.id),
    );
    const forService = service ? ` for ${service}` : "";
    const who = after > 0 ? "no partner of a later priority" : "no partner";
    return `${who} serves ${job.zip}${forService}${serving.length > 0 ? " at this hour" : ""}`;
  }

  const alertRows = (job: ReferralJob, headline: string, explanation: string) => {
    const alert = settings.alert({
      purpose: "auto_referral_alert",
      headline,
      explanation,
      leadId: job.id,
      service: job.service,
    });
    return [
      JSON.stringify(alert.emails.map((email) => emailRow(email, settings.messageIdDomain))),
      JSON.stringify(alert.messages.map(messageRow)),
    ];
  };

  const offerNotes = (step: Step, zip: string, before: string) =>
    step.partners.map((partner) => ({
      partner,
      note: `${before}Referral offered automatically to ${partner.name} (priority ${step.priority}, serves ${zip} at this hour)`,
    }));

  /** The rules' first step for a lead just stored. */
  async function referNew(leadId: string): Promise<void> {
    if (!(await routingSettings(db)).referAutomatically) return;
    const job = await referralJob(db, leadId);
    if (!job?.zip) return;
    const withZip = { ...job, zip: job.zip };
    if (job.optOut) {
      await run("auto_referral_not_referred", NOT_REFERRED, [
        job.id,
        leadEventRows([
          {
            leadId: job.id,
            by: BY,
            note: `Not referred automatically: the visitor opted out of sharing (${job.optOut})`,
          },
        ]),
        "[]",
        "[]",
      ]);
      return;
    }
    const step = await nextStep(withZip, 0, []);
    if (!step) {
      const why = await nobodyBecause(withZip, 0, []);
      const [row] = await run<{ finished: number }>("auto_referral_not_referred", NOT_REFERRED, [
        job.id,
        leadEventRows([{ leadId: job.id, by: BY, note: `Not referred automatically: ${why}` }]),
        ...alertRows(job, "No partner for a new lead", `The lead was not referred automatically: ${why}.`),
      ]);
      if (row?.finished) settings.onQueued();
      return;
    }
    await settings.referrals.offerClaimed({
      job,
      offers: offerNotes(step, withZip.zip, ""),
      by: BY,
      claim: { name: "auto_referral_offer_new", cte: CLAIM_NEW("$8"), params: [step.priority] },
    });
  }

  /** A step whose time is up: the next priority, or the end of the rules with an alert. */
  async function advance(leadId: string, priority: number | null): Promise<boolean> {
    const job = await referralJob(db, leadId);
    const offers = await db
      .select({ partnerId: referrals.partnerId, answer: referrals.answer })
      .from(referrals)
      .where(eq(referrals.contactRequestId, leadId));
    if (!job?.zip || priority === null || offers.some((offer) => offer.answer === "accepted")) {
      // Taken, or nothing left to do: the rules are done with the lead, quietly.
      await run("auto_referral_stop", STOP, [leadId, "[]", "[]", "[]", priority]);
      return false;
    }
    const withZip = { ...job, zip: job.zip };
    const before = offers.every((offer) => offer.answer === "declined")
      ? `Every partner of priority ${priority} declined`
      : `No partner of priority ${priority} accepted within ${settings.timeoutMinutes} minutes`;
    const offered = offers.map((offer) => offer.partnerId);
    const step = await nextStep(withZip, priority, offered);
    if (!step) {
      const why = await nobodyBecause(withZip, priority, offered);
      const [row] = await run<{ finished: number }>("auto_referral_stop", STOP, [
        leadId,
        leadEventRows([{ leadId, by: BY, note: `${before}, and ${why}: referral stopped` }]),
        ...alertRows(job, "No partner took a lead", `${before}, and ${why}.`),
        priority,
      ]);
      return Boolean(row?.finished);
    }
    const sent = await settings.referrals.offerClaimed({
      job,
      offers: offerNotes(step, withZip.zip, `${before}: `),
      by: BY,
      claim: { name: "auto_referral_offer_next", cte: CLAIM_NEXT, params: [step.priority, priority] },
    });
    return sent > 0;
  }

  return {
    /** After a lead with a ZIP code is stored: the rules' first step, when "Refer new leads automatically" is on. */
    referNew,

    /**
     * Every sweep: the next priority for leads whose step is over, and the first step for new leads the server
     * stopped before referring. How many leads the rules acted on.
     */
    async sweep(): Promise<number> {
      let acted = 0;
      for (const due of await run<{ lead_id: string; priority: number | null }>("auto_referrals_due", FIND_DUE, [
        settings.timeoutMinutes,
      ])) {
        if (await advance(due.lead_id, due.priority)) acted += 1;
      }
      if (!(await routingSettings(db)).referAutomatically) return acted;
      for (const missed of await run<{ lead_id: string }>("auto_referrals_missed", FIND_MISSED, [CATCH_UP_MINUTES])) {
        await referNew(missed.lead_id);
        acted += 1;
      }
      if (acted > 0) settings.onQueued();
      return acted;
    },
  };
}

export type AutoReferrals = ReturnType<typeof createAutoReferrals>;

import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database, RunStatement } from "../db/index.server.ts";
import { sqlNames } from "../db/index.server.ts";
import { countHitCte, limitResult } from "../limits/index.server.ts";
import { emailRow, messageRow, queueEmailsCte, queueMessagesCte } from "../outbox/index.server.ts";
import {
  leadEventRows,
  optedOutOfSharingSql,
  recordLeadEventsCte,
  type LeadEvent,
  referralJob,
  type ReferralJob,
} from "../leads/index.server.ts";
import { isoUtc, queueWebhooksCte, type WebhookEvent } from "../webhooks/index.server.ts";
import { knownService } from "~/content/partner-services.ts";
import { isRowId } from "../../lib/row-id.ts";
import { formatTime, wallClock } from "../../lib/operator-time.ts";
import {
  chargeAcceptedCte,
  chargePassesLimitSql,
  approveReturn,
  chargeOf,
  defaultFee,
  formatMinor,
  denyReturn,
  duePeriod,
  lastMonthPeriod,
  unissuedCount,
  type StatementPeriod,
  findStatement,
  issueStatement,
  statementView,
  paymentInstructions,
  previewStatement,
  openReturn,
  requestReturn,
  returnOf,
  validateReturn,
  type ReturnOutcome,
} from "../ledger/index.server.ts";
import {
  acceptedEmail,
  contactRows,
  feeLine,
  jobRows,
  offerEmail,
  offerText,
  type ReferralMessageSettings,
} from "./referral-messages.server.ts";
import { referralToken, verifyReferralToken } from "./referral-token.server.ts";
import { partners, referrals } from "./schema.server.ts";

/**
 * Referring a lead: offering the job to partners (an email each, and a text when texts are configured),
 * and a partner's answer through the link: the first to accept gets the job and the visitor's contact
 * details; every offer and answer is recorded in the lead's history in the same statement.
 */

export interface ReferralSettings extends ReferralMessageSettings {
  db: Database;
  run: RunStatement;
  /** The key tokens are signed with. */
  tokenKey: string;
  siteUrl: string;
  messageIdDomain: string;
  /** Partners are also sent a text message (the "sms" channel is configured). */
  texts: boolean;
  /** Opening or answering a link: this many per client and window. */
  pageLimit: { perWindow: number; windowSeconds: number };
  /** After accepting, the partner may return the lead for a credit for this many days (RETURN_WINDOW_DAYS). */
  returnWindowDays: number;
  /** A statement is due this many days after it is issued (STATEMENT_DUE_DAYS). */
  statementDueDays: number;
  /** OPERATOR_TIME_ZONE: the day of a job as the ledger records it, and when statements are due. */
  timeZone: string;
  /** CONVERSION_CURRENCY: what fees and statements are in. */
  currency: string;
  /** Called once messages are queued, so the outbox sends them now. */
  onQueued(): void;
}

type Label = [label: string, value: string];

export type OfferOutcome =
  | { kind: "sent"; partners: number }
  | { kind: "no-lead" }
  | { kind: "no-partners" }
  | { kind: "needs-confirmation"; reason: string }
  | { kind: "taken" };

/** What the link's page shows, or why it cannot. */
export type ReferralPage =
  | { kind: "open"; partnerName: string; job: Label[]; /** "Fee if you accept: $55.00" */ fee: string }
  | {
      kind: "accepted";
      partnerName: string;
      job: Label[];
      /** The customer's name, phone and email; none once they have asked not to be shared (do not sell). */
      contact: Label[];
      /** The customer asked not to have their details shared after the job was offered: why the contact is empty. */
      contactWithdrawn: boolean;
      /** The lead's return: offered until `until` (when charged), sent, or decided. */
      leadReturn: LeadReturnState;
      /** What accepting charged ("$55.00"); null when nothing was. */
      charged: string | null;
    }
  | { kind: "declined" }
  | { kind: "taken" }
  | { kind: "used" }
  | { kind: "expired" }
  | { kind: "withdrawn" }
  | { kind: "not-found" }
  /** Accepting would charge the partner past their balance limit: settle first. */
  | { kind: "over-limit" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/** Where a partner's return of an accepted lead stands, as their page shows it. */
export type LeadReturnState =
  | { state: "offered"; until: string; error?: string }
  | { state: "none" }
  | { state: "sent"; reason: string }
  | { state: "approved" }
  | { state: "denied"; reason: string };

const r = sqlNames(referrals);
const p = sqlNames(partners);

/** The partner of a referral event, as the `referral.*` webhooks carry them (a business's contact details). */
const PARTNER_DATA = `jsonb_build_object('id', partner.${p.id}, 'name', partner.${p.name}, 'business', partner.${p.business},
    'phone', partner.${p.phone}, 'email', partner.${p.email})`;

/** The referrals a statement yields (`referral.*` webhooks, documented in docs/guides/webhooks-and-api.md). */
const referralWebhooksCte = (options: {
  name: string;
  event: WebhookEvent;
  from: string;
  at: string;
  where?: string;
}) =>
  queueWebhooksCte({
    name: options.name,
    event: options.event,
    from: `${options.from} JOIN ${p.table} AS partner ON partner.${p.id} = ${options.from}.partner_id`,
    data: `jsonb_build_object('referral_id', ${options.from}.referral_id, 'lead_id', ${options.from}.lead_id,
  ${options.at}, 'partner', ${PARTNER_DATA})`,
    where: options.where,
  });

/**
 * Offers of a lead to partners: $1 the lead, $2 who offers, $3 the links' hours, $4 the offers, $5 their emails, $6
 * their texts, $7 the history's events. Nothing is offered once the job is taken. An offer made by the rules
 * carries `claim`, a CTE named `claim` (its parameters from $8): nothing is offered unless it yields a row, nor to
 * a person who opted out of sharing.
 */
const offerStatement = (claim: string | null) => `WITH ${claim ? `${claim},\n` : ""}lead AS (
  SELECT $1::uuid AS id WHERE NOT EXISTS (
    SELECT 1 FROM ${r.table} WHERE ${r.contactRequestId} = $1::uuid AND ${r.answer} = 'accepted')
  ${claim ? `AND EXISTS (SELECT 1 FROM claim) AND NOT ${optedOutOfSharingSql("$1::uuid")}` : ""}
),
offered AS (
  INSERT INTO ${r.table} (${r.id}, ${r.contactRequestId}, ${r.partnerId}, ${r.offeredBy}, ${r.expiresAt})
  SELECT offer.id, lead.id, offer.partner_id, $2, now() + $3 * interval '1 hour'
  FROM lead, jsonb_to_recordset($4::jsonb) AS offer(id uuid, partner_id uuid)
  RETURNING ${r.contactRequestId} AS lead_id, ${r.id} AS referral_id, ${r.partnerId} AS partner_id,
    ${r.offeredAt} AS offered_at, ${r.expiresAt} AS expires_at, ${r.offeredBy} AS offered_by
),
${queueEmailsCte({ rows: "$5", request: { column: "contact", from: "lead" } })},
${queueMessagesCte({ rows: "$6", from: "lead" })},
${recordLeadEventsCte({ name: "events", rows: "$7", when: "offered" })},
${referralWebhooksCte({
  name: "queued_webhooks",
  event: "referral.offered",
  from: "offered",
  at: `'offered_at', ${isoUtc("offered.offered_at")}, 'expires_at', ${isoUtc("offered.expires_at")},
  'offered_by', offered.offered_by`,
})}
SELECT count(*)::int AS offered FROM offered`;

const OFFER = offerStatement(null);

/** What makes an offer by the rules happen once: a CTE named `claim` (its parameters from $8), and the statement's name. */
export interface OfferClaim {
  name: string;
  cte: string;
  params: unknown[];
}

/** A partner as an offer reaches them. */
export interface OfferedPartner {
  id: string;
  name: string;
  email: string;
  phone: string;
}

const HIT = `WITH ${countHitCte({ key: "$1", windowSeconds: "$2", allowed: "$3" })}
SELECT allowed, seconds_left FROM form_hit`;

/**
 * An offer is withdrawn once its person opts out of sharing after it was made: a do-not-sell request, or Global
 * Privacy Control with a later lead. As SQL on the offer's row, named `referral`.
 */
export function withdrawnSql(referral: string): string {
  return optedOutOfSharingSql(`${referral}.${r.contactRequestId}`, `${referral}.${r.offeredAt}`);
}

/** The partner's own fee for the job's service ($10), or per referral; null for the console's default. */
const feeOf = (referral: string) => `(SELECT coalesce((${p.serviceFees} ->> $10)::int, ${p.feeMinor}) FROM ${p.table}
  WHERE ${p.id} = ${referral}.${r.partnerId})`;

/**
 * A partner's answer: taken only while the link is unused and unexpired, and (to accept) the job still free, the
 * offer not withdrawn and its charge within the partner's balance limit, judged in the same statement that hands the job over; the answer queues its
 * `referral.accepted` or `referral.declined` webhooks in the same statement.
 */
const ANSWER = `WITH answered AS (
  UPDATE ${r.table} AS referral SET ${r.answer} = $2, ${r.answeredAt} = now()
  WHERE referral.${r.id} = $1::uuid AND referral.${r.answer} IS NULL AND referral.${r.expiresAt} > now()
    AND ($2 = 'declined' OR (NOT ${withdrawnSql("referral")} AND NOT EXISTS (
      SELECT 1 FROM ${r.table} AS other
      WHERE other.${r.contactRequestId} = referral.${r.contactRequestId} AND other.${r.answer} = 'accepted')
      AND NOT ${chargePassesLimitSql(`referral.${r.partnerId}`, feeOf("referral"))}))
  RETURNING referral.${r.contactRequestId} AS id, referral.${r.contactRequestId} AS lead_id,
    referral.${r.id} AS referral_id, referral.${r.partnerId} AS partner_id, referral.${r.answeredAt} AS answered_at,
    ${feeOf("referral")} AS fee_minor
),
accepted_now AS (SELECT referral_id, lead_id, partner_id, fee_minor FROM answered WHERE $2 = 'accepted'),
${chargeAcceptedCte({ from: "accepted_now", service: "$5", zip: "$6", day: "$7", source: "$8", campaign: "$9" })},
${queueEmailsCte({ rows: "$3", request: { column: "contact", from: "answered" } })},
${recordLeadEventsCte({ name: "events", rows: "$4", when: "answered" })},
${referralWebhooksCte({
  name: "accepted_webhooks",
  event: "referral.accepted",
  from: "answered",
  at: `'accepted_at', ${isoUtc("answered.answered_at")}`,
  where: "$2 = 'accepted'",
})},
${referralWebhooksCte({
  name: "declined_webhooks",
  event: "referral.declined",
  from: "answered",
  at: `'declined_at', ${isoUtc("answered.answered_at")}`,
  where: "$2 = 'declined'",
})}
SELECT count(*)::int AS answered FROM answered`;

/** An instant's calendar day in a zone, "2026-11-25". */
function dayIn(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export function createReferrals(settings: ReferralSettings) {
  const { db, run } = settings;
  const link = (referralId: string) => `${settings.siteUrl}/r/${referralToken(settings.tokenKey, referralId)}`;

  /** Issues the period's statements, one run at a time in this process: a run waits for the one before it. */
  let issuing: Promise<unknown> = Promise.resolve();
  function issueInTurn(due: StatementPeriod): Promise<number> {
    const turn = issuing.then(() => issueAll(due));
    issuing = turn.catch(() => undefined);
    return turn;
  }

  async function issueAll(due: StatementPeriod): Promise<number> {
    const everyone = await db
      .select({ id: partners.id, name: partners.name, business: partners.business, email: partners.email })
      .from(partners);
    let issued = 0;
    for (const partner of everyone) {
      const made = await issueStatement(db, run, partner, due, {
        companyName: settings.companyName,
        replyTo: settings.replyTo,
        messageIdDomain: settings.messageIdDomain,
        currency: settings.currency,
        timeZone: settings.timeZone,
        dueDays: settings.statementDueDays,
        link: (statementId) =>
          `${settings.siteUrl}/statements/${referralToken(settings.tokenKey, statementId, "statement")}`,
      });
      if (made) issued += 1;
    }
    if (issued > 0) settings.onQueued();
    return issued;
  }

  /** Offers the job to partners, each with its history line, in one statement; how many were offered. */
  async function send(
    job: ReferralJob,
    chosen: { partner: OfferedPartner; note: string }[],
    by: string,
    claim: OfferClaim | null,
  ): Promise<number> {
    // Each partner's fee for this job, said in the offer.
    const fees = chosen.length
      ? await db
          .select({ id: partners.id, feeMinor: partners.feeMinor, serviceFees: partners.serviceFees })
          .from(partners)
          .where(
            inArray(
              partners.id,
              chosen.map(({ partner }) => partner.id),
            ),
          )
      : [];
    const offers = await Promise.all(
      chosen.map(async ({ partner, note }) => {
        const own = fees.find((fee) => fee.id === partner.id) ?? { feeMinor: null, serviceFees: {} };
        return { id: randomUUID(), partner, note, fee: await feeFor(own, job.service) };
      }),
    );
    const [row] = await run<{ offered: number }>(
      claim ? claim.name : "referral_offer",
      claim ? offerStatement(claim.cte) : OFFER,
      [
        job.id,
        by,
        settings.tokenHours,
        JSON.stringify(offers.map((offer) => ({ id: offer.id, partner_id: offer.partner.id }))),
        JSON.stringify(
          offers.map((offer) =>
            emailRow(offerEmail(offer.partner, job, link(offer.id), settings, offer.fee), settings.messageIdDomain),
          ),
        ),
        JSON.stringify(
          settings.texts
            ? offers.flatMap((offer) => {
                const text = offerText(offer.partner, job, link(offer.id), settings.companyName, offer.fee);
                return text ? [messageRow(text)] : [];
              })
            : [],
        ),
        leadEventRows(offers.map((offer) => ({ leadId: job.id, by, note: offer.note }))),
        ...(claim?.params ?? []),
      ],
    );
    return row?.offered ?? 0;
  }

  async function countHit(clientKey: string) {
    const [hit] = await run<{ allowed: boolean; seconds_left: number }>("referral_page_hit", HIT, [
      `referral:${clientKey}`,
      settings.pageLimit.windowSeconds,
      settings.pageLimit.perWindow,
    ]);
    return limitResult(hit!);
  }

  /** The referral a token names, with its partner and whether its lead's job is taken. */
  async function lookUp(referralId: string) {
    const [found] = await db
      .select({
        id: referrals.id,
        leadId: referrals.contactRequestId,
        answer: referrals.answer,
        answeredAt: referrals.answeredAt,
        partnerId: referrals.partnerId,
        offeredAt: referrals.offeredAt,
        expiresAt: referrals.expiresAt,
        partnerName: partners.name,
        partnerEmail: partners.email,
        partnerPhone: partners.phone,
        partnerFeeMinor: partners.feeMinor,
        partnerServiceFees: partners.serviceFees,
        withdrawn: sql<boolean>`${sql.raw(withdrawnSql(r.table))}`,
      })
      .from(referrals)
      .innerJoin(partners, eq(partners.id, referrals.partnerId))
      .where(eq(referrals.id, referralId));
    if (!found) return null;
    const [accepted] = await db
      .select({ id: referrals.id })
      .from(referrals)
      .where(and(eq(referrals.contactRequestId, found.leadId), eq(referrals.answer, "accepted")));
    return { ...found, takenBy: accepted?.id ?? null };
  }

  /** Why a link cannot be answered now, or null when it can. */
  function closedState(found: NonNullable<Awaited<ReturnType<typeof lookUp>>>): ReferralPage | null {
    if (found.answer !== null) return { kind: "used" };
    if (found.takenBy !== null) return { kind: "taken" };
    if (found.withdrawn) return { kind: "withdrawn" };
    if (found.expiresAt.getTime() <= Date.now()) return { kind: "expired" };
    return null;
  }

  type Found = NonNullable<Awaited<ReturnType<typeof lookUp>>>;

  /**
   * A partner's fee for a job, formatted: their fee for its service, else their own, else the console's default (as
   * the acceptance charges it).
   */
  async function feeFor(partner: { feeMinor: number | null; serviceFees: Record<string, number> }, service: string) {
    const known = knownService(service);
    const minor = (known ? partner.serviceFees[known] : undefined) ?? partner.feeMinor ?? (await defaultFee(db));
    return formatMinor(minor, settings.currency);
  }
  type Job = NonNullable<Awaited<ReturnType<typeof referralJob>>>;

  /** When the partner who accepted may no longer return the lead. */
  const returnEnds = (found: Found) =>
    found.answeredAt ? new Date(found.answeredAt.getTime() + settings.returnWindowDays * 86_400_000) : null;

  /**
   * The accepted job's page: the customer's details (unless they have since asked not to be shared), and the lead's
   * return as it stands.
   */
  async function acceptedPage(found: Found, job: Job, error?: string): Promise<ReferralPage> {
    const [sent, charge] = await Promise.all([returnOf(db, found.id), chargeOf(db, found.id)]);
    const ends = returnEnds(found);
    const leadReturn: LeadReturnState = sent
      ? sent.decision === "approved"
        ? { state: "approved" }
        : sent.decision === "denied"
          ? { state: "denied", reason: sent.denialReason ?? "" }
          : { state: "sent", reason: sent.reason }
      : charge && ends && ends.getTime() > Date.now()
        ? { state: "offered", until: formatTime(ends, settings.timeZone), ...(error ? { error } : {}) }
        : { state: "none" };
    return {
      kind: "accepted",
      charged: charge ? formatMinor(charge.amountMinor, settings.currency) : null,
      partnerName: found.partnerName,
      job: jobRows(job),
      contact: found.withdrawn ? [] : contactRows(job),
      contactWithdrawn: found.withdrawn,
      leadReturn,
    };
  }

  /**
   * The referral and its job when the link can be answered; the accepted job's page to the partner who accepted,
   * while they may still return it; otherwise the page saying why not.
   */
  async function open(token: string, clientKey: string) {
    const limit = await countHit(clientKey);
    if (!limit.allowed) return { page: { kind: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds } } as const;
    const referralId = verifyReferralToken(settings.tokenKey, token);
    const found = referralId ? await lookUp(referralId) : null;
    const job = found ? await referralJob(db, found.leadId) : null;
    if (!found || !job) return { page: { kind: "not-found" } } as const;
    // The partner who accepted keeps the job's page while they may return it (a charged lead, within the window).
    if (
      found.answer === "accepted" &&
      (returnEnds(found)?.getTime() ?? 0) > Date.now() &&
      (await chargeOf(db, found.id)) !== null
    ) {
      return { page: null, accepted: true, found, job } as const;
    }
    const closed = closedState(found);
    return closed ? ({ page: closed } as const) : ({ page: null, accepted: false, found, job } as const);
  }

  return {
    /** The link's page: the job and the buttons, or why the link no longer works. */
    async page(token: string, clientKey: string): Promise<ReferralPage> {
      const opened = await open(token, clientKey);
      if (opened.page) return opened.page;
      if (opened.accepted) return acceptedPage(opened.found, opened.job);
      const { found, job } = opened;
      const fee = await feeFor({ feeMinor: found.partnerFeeMinor, serviceFees: found.partnerServiceFees }, job.service);
      return { kind: "open", partnerName: found.partnerName, job: jobRows(job), fee: feeLine(fee) };
    },

    /** "Send return" from the accepted job's page: within the return window, once. */
    async returnLead(token: string, clientKey: string, form: FormData): Promise<ReferralPage> {
      const opened = await open(token, clientKey);
      if (opened.page) return opened.page;
      if (!opened.accepted) return { kind: "not-found" };
      const { found, job } = opened;
      const checked = validateReturn(form);
      if (!checked.ok) return acceptedPage(found, job, checked.error);
      const outcome: ReturnOutcome = await requestReturn(run, {
        referralId: found.id,
        partnerId: found.partnerId,
        acceptedAt: found.answeredAt!,
        windowDays: settings.returnWindowDays,
        request: checked.request,
      });
      if (outcome.kind === "window-closed") return { kind: "used" };
      if (outcome.kind === "sent") settings.onQueued();
      return acceptedPage(found, job);
    },

    /** "Accept" or "Decline" from the link's page. */
    async answer(token: string, clientKey: string, answer: "accepted" | "declined"): Promise<ReferralPage> {
      const opened = await open(token, clientKey);
      if (opened.page) return opened.page;
      // "Accept" again on the accepted job's page: the same page, nothing more.
      if (opened.accepted) return acceptedPage(opened.found, opened.job);
      const { found, job } = opened;
      const partner = { name: found.partnerName, email: found.partnerEmail, phone: found.partnerPhone };
      const fee = await feeFor({ feeMinor: found.partnerFeeMinor, serviceFees: found.partnerServiceFees }, job.service);
      const emails =
        answer === "accepted" ? [emailRow(acceptedEmail(partner, job, settings, fee), settings.messageIdDomain)] : [];
      const event: LeadEvent = {
        leadId: found.leadId,
        by: found.partnerName,
        note: `Referral ${answer} by ${found.partnerName}`,
      };
      let answered: number;
      try {
        const [row] = await run<{ answered: number }>("referral_answer", ANSWER, [
          found.id,
          answer,
          JSON.stringify(emails),
          leadEventRows([event]),
          job.service.slice(0, 200),
          job.zip,
          dayIn(new Date(), settings.timeZone),
          job.source,
          job.campaign,
          knownService(job.service),
        ]);
        answered = row?.answered ?? 0;
      } catch (error) {
        // Two acceptances at the same moment: the unique index lets one through; the other lost the job.
        if ((error as { code?: string }).code === "23505") return { kind: "taken" };
        throw error;
      }
      if (answered === 0) {
        const now = await lookUp(found.id);
        if (!now) return { kind: "not-found" };
        // Still open to them, yet not taken: the charge would have passed their balance limit.
        return closedState(now) ?? (answer === "accepted" ? { kind: "over-limit" } : { kind: "not-found" });
      }
      settings.onQueued();
      if (answer === "declined") return { kind: "declined" };
      const accepted = await lookUp(found.id);
      return accepted ? acceptedPage(accepted, job) : { kind: "not-found" };
    },

    /**
     * "Approve" or "Deny" on the Returns page: the return is decided, and its partner emailed the amount credited, or
     * the charge that stands with the operator's reason. False when it was already decided.
     */
    async decideReturn(
      input: { returnId: string; by: string } & ({ decision: "approved" } | { decision: "denied"; reason: string }),
    ): Promise<boolean> {
      if (!isRowId(input.returnId)) return false;
      const waiting = await openReturn(db, input.returnId);
      const [partner] = waiting
        ? await db
            .select({ name: partners.name, email: partners.email })
            .from(partners)
            .where(eq(partners.id, waiting.partnerId))
        : [];
      if (!waiting || !partner) return false;
      const notice = {
        partner,
        job: { service: waiting.service, zip: waiting.zip, chargeMinor: waiting.chargeMinor },
        settings: {
          companyName: settings.companyName,
          replyTo: settings.replyTo,
          messageIdDomain: settings.messageIdDomain,
          currency: settings.currency,
        },
      };
      const decided =
        input.decision === "approved"
          ? await approveReturn(run, input.returnId, input.by, dayIn(new Date(), settings.timeZone), notice)
          : await denyReturn(run, { returnId: input.returnId, by: input.by, reason: input.reason, ...notice });
      if (decided) settings.onQueued();
      return decided;
    },

    /**
     * The monthly statements due now (last month's from the 1st at 08:00), for every partner with entries in it;
     * those issued before are not issued again. How many were issued.
     */
    issueMonthlyStatements(now = new Date()): Promise<number> {
      return issueInTurn(duePeriod(now, settings.timeZone));
    },

    /** "Issue last month's statements now": the same statements, before the 1st at 08:00. How many were issued. */
    issueLastMonthNow(now = new Date()): Promise<number> {
      return issueInTurn(lastMonthPeriod(now, settings.timeZone));
    },

    /** How many of last month's statements are still to be issued (each partner with entries in it has one). */
    lastMonthUnissued(now = new Date()): Promise<number> {
      return unissuedCount(db, lastMonthPeriod(now, settings.timeZone));
    },

    /** "Preview statement": the partner's statement of the month in progress, as it would be issued at `now`. */
    statementPreview(partner: { id: string; name: string; business: string }, now = new Date()) {
      return previewStatement(db, partner, now, {
        currency: settings.currency,
        timeZone: settings.timeZone,
        dueDays: settings.statementDueDays,
      });
    },

    /** A statement's printable page, by its emailed link: its rows exactly as issued, or null. */
    async statementPage(token: string) {
      const id = verifyReferralToken(settings.tokenKey, token, "statement");
      const statement = id ? await findStatement(db, id) : null;
      return statement
        ? statementView(statement, {
            dueDays: settings.statementDueDays,
            timeZone: settings.timeZone,
            paymentInstructions: await paymentInstructions(db),
          })
        : null;
    },

    /** "Send referral": offers the lead to the chosen partners still active and not paused. */
    async offer(input: {
      leadId: string;
      partnerIds: string[];
      operatorEmail: string;
      /** The operator confirmed sending a lead whose visitor opted out of sale or sharing. */
      optOutConfirmed: boolean;
    }): Promise<OfferOutcome> {
      const job = await referralJob(db, input.leadId);
      if (!job) return { kind: "no-lead" };
      const ids = input.partnerIds.filter(isRowId);
      const chosen = ids.length
        ? await db
            .select({
              id: partners.id,
              name: partners.name,
              email: partners.email,
              phone: partners.phone,
            })
            .from(partners)
            .where(and(inArray(partners.id, ids), eq(partners.active, true), isNull(partners.pausedAt)))
        : [];
      if (chosen.length === 0) return { kind: "no-partners" };
      if (job.optOut && !input.optOutConfirmed) return { kind: "needs-confirmation", reason: job.optOut };
      const offered = await send(
        job,
        chosen.map((partner) => ({ partner, note: `Referral offered to ${partner.name}` })),
        input.operatorEmail,
        null,
      );
      if (!offered) return { kind: "taken" };
      settings.onQueued();
      return { kind: "sent", partners: offered };
    },

    /**
     * Offers made by the rules: sent as the operator's are, only when the claim yields a row, and never to a person
     * who opted out of sharing. How many were offered.
     */
    async offerClaimed(input: {
      job: ReferralJob;
      offers: { partner: OfferedPartner; note: string }[];
      by: string;
      claim: OfferClaim;
    }): Promise<number> {
      const offered = await send(input.job, input.offers, input.by, input.claim);
      if (offered) settings.onQueued();
      return offered;
    },
  };
}

export type Referrals = ReturnType<typeof createReferrals>;

import { escapeHtml } from "~/lib/escape-html.ts";
import { formatMoney } from "~/lib/money.ts";
import { countsBySourceAndCampaign } from "../analytics/index.server.ts";
import { type Database, type RunStatement, sqlNames } from "../db/index.server.ts";
import { leadOutcomesBySource } from "../leads/index.server.ts";
import { log } from "../log.server.ts";
import { emailRow, messageIdDomain, queueEmailsCte, type EmailToSend } from "../outbox/index.server.ts";
import { dueDigestWeek, type DigestWeek } from "./digest-week.server.ts";
import { weeklyDigests } from "./schema.server.ts";
import { spendInRange } from "./spend.server.ts";
import { revenueBySource } from "../ledger/index.server.ts";

/**
 * The weekly digest: every Monday at 08:00 in the operator's zone, one email to LEADS_EMAIL_TO through the outbox,
 * last week against the week before (views, call clicks, leads, booked jobs, spend, revenue and profit (partners'
 * charges less credits, less spend), and cost per lead for the five
 * campaigns that cost most), with a link to the dashboard. Instances check every minute; the first to claim the
 * week, in the statement that queues the email, sends it.
 */

export interface DigestSettings {
  timeZone: string;
  currency: string;
  leadsEmailTo: string;
  mailFrom: string;
  companyName: string;
  siteUrl: string;
}

interface WeekFigures {
  views: number;
  calls: number;
  leads: number;
  booked: number;
  spendCents: number;
  /** Partners' charges less credits recorded in the week. */
  revenueCents: number;
  /** Per campaign ("source / campaign"): spend, and leads. */
  campaigns: Map<string, { spendCents: number; leads: number }>;
}

const TOP_CAMPAIGNS = 5;

async function weekFigures(db: Database, range: DigestWeek["last"], timeZone: string): Promise<WeekFigures> {
  const [counts, outcomes, spend, revenue] = await Promise.all([
    countsBySourceAndCampaign(db, range.from, range.to),
    leadOutcomesBySource(db, range.startsAt, range.endsAt, timeZone),
    spendInRange(db, range.from, range.to),
    revenueBySource(db, range.startsAt, range.endsAt),
  ]);
  const name = (source: string, campaign: string) =>
    campaign ? `${source} / ${campaign}` : `${source} (all campaigns)`;
  const campaigns = new Map<string, { spendCents: number; leads: number }>();
  for (const cost of spend) campaigns.set(name(cost.source, cost.campaign), { spendCents: cost.costCents, leads: 0 });
  for (const outcome of outcomes) {
    // A lead counts for its campaign and for its source's spend entered for all campaigns, once for each.
    for (const campaign of new Set([name(outcome.source, outcome.campaign), name(outcome.source, "")])) {
      const found = campaigns.get(campaign);
      if (found) found.leads += outcome.leads;
    }
  }
  const sum = <T>(rows: T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);
  return {
    views: sum(counts, (row) => row.views),
    calls: sum(counts, (row) => row.calls),
    leads: sum(outcomes, (row) => row.leads),
    booked: sum(outcomes, (row) => row.booked),
    spendCents: sum(spend, (row) => row.costCents),
    revenueCents: sum(revenue, (row) => row.revenueMinor),
    campaigns,
  };
}

const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** The email: a table of last week, the week before and the change, then the top campaigns' cost per lead. */
function renderDigest(week: DigestWeek, last: WeekFigures, before: WeekFigures, settings: DigestSettings): EmailToSend {
  const money = (cents: number) => formatMoney(cents, settings.currency);
  const perLead = (figures: { spendCents: number; leads: number } | undefined) =>
    !figures || figures.leads === 0 ? "–" : money(Math.round(figures.spendCents / figures.leads));
  const change = (now: number, then: number) =>
    then === 0
      ? now === 0
        ? "0%"
        : "new"
      : `${now >= then ? "+" : ""}${Math.round(((now - then) * 100) / Math.abs(then))}%`;
  const count = (value: number) => value.toLocaleString("en-US");
  const lastLabel = `${shortDate(week.last.from)}–${shortDate(week.last.to)}`;
  const beforeLabel = `${shortDate(week.before.from)}–${shortDate(week.before.to)}`;
  const opening = `${settings.companyName}: last week (${lastLabel}) against the week before (${beforeLabel}), days in ${settings.timeZone}.`;
  const figures: [string, string, string, string][] = [
    ["Page views", count(last.views), count(before.views), change(last.views, before.views)],
    ["Call clicks", count(last.calls), count(before.calls), change(last.calls, before.calls)],
    ["Leads", count(last.leads), count(before.leads), change(last.leads, before.leads)],
    ["Booked jobs", count(last.booked), count(before.booked), change(last.booked, before.booked)],
    ["Spend", money(last.spendCents), money(before.spendCents), change(last.spendCents, before.spendCents)],
    ["Revenue", money(last.revenueCents), money(before.revenueCents), change(last.revenueCents, before.revenueCents)],
    [
      "Profit",
      money(last.revenueCents - last.spendCents),
      money(before.revenueCents - before.spendCents),
      change(last.revenueCents - last.spendCents, before.revenueCents - before.spendCents),
    ],
  ];
  const top = [...last.campaigns.entries()]
    .sort(([a, x], [b, y]) => y.spendCents - x.spendCents || a.localeCompare(b))
    .slice(0, TOP_CAMPAIGNS)
    .map(([campaign, figures]): [string, string, string] => [
      campaign,
      perLead(figures),
      perLead(before.campaigns.get(campaign)),
    ]);
  const dashboardUrl = `${settings.siteUrl}/admin/dashboard?days=7`;
  const text = [
    opening,
    "",
    ...figures.map(([label, now, then, delta]) => `${label}: ${now} (week before: ${then}, ${delta})`),
    "",
    top.length ? "Cost per lead, the campaigns that cost most:" : "No spend was entered for last week.",
    ...top.map(([campaign, now, then]) => `${campaign}: ${now} (week before: ${then})`),
    "",
    `The dashboard: ${dashboardUrl}`,
  ].join("\n");
  const cell = (value: string, header = false) =>
    header
      ? `<th align="left" style="padding:4px 12px 4px 0">${escapeHtml(value)}</th>`
      : `<td align="right" style="padding:4px 12px 4px 0">${escapeHtml(value)}</td>`;
  const table = (headings: string[], rows: string[][]) =>
    `<table cellpadding="0" cellspacing="0"><tr>${headings.map((heading) => cell(heading, true)).join("")}</tr>` +
    rows
      .map(([label, ...values]) => `<tr>${cell(label!, true)}${values.map((value) => cell(value)).join("")}</tr>`)
      .join("") +
    "</table>";
  const html =
    `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">` +
    `<p>${escapeHtml(opening)}</p>` +
    table(["", "Last week", "Week before", "Change"], figures) +
    (top.length
      ? `<p>Cost per lead, the campaigns that cost most:</p>${table(["Campaign", "Last week", "Week before"], top)}`
      : "<p>No spend was entered for last week.</p>") +
    `<p><a href="${escapeHtml(dashboardUrl)}">Open the dashboard</a></p></body></html>`;
  return {
    purpose: "weekly_digest",
    to: settings.leadsEmailTo,
    replyTo: null,
    subject: `${settings.companyName} weekly digest: ${lastLabel}`,
    text,
    html,
  };
}

const digests = sqlNames(weeklyDigests);
/** Claims the week and queues its email in one statement: the email is queued only by the instance that claimed it. */
const CLAIM_AND_QUEUE = `WITH claimed AS (
  INSERT INTO ${digests.table} (${digests.weekStart}) VALUES ($1::date) ON CONFLICT DO NOTHING RETURNING 1
), ${queueEmailsCte({ rows: "$2", where: "EXISTS (SELECT 1 FROM claimed)" })}
SELECT count(*)::int AS claimed FROM claimed`;
const ALREADY_SENT = `SELECT 1 FROM ${digests.table} WHERE ${digests.weekStart} = $1::date`;

/** Sends the digest due at `now`, unless it is not due or another instance sent it. True when this call sent it. */
export async function sendDueDigest(
  db: Database,
  run: RunStatement,
  settings: DigestSettings,
  now = new Date(),
): Promise<boolean> {
  const week = dueDigestWeek(now, settings.timeZone);
  if (!week) return false;
  if ((await run("digest_sent", ALREADY_SENT, [week.sendDate])).length) return false;
  const [last, before] = await Promise.all([
    weekFigures(db, week.last, settings.timeZone),
    weekFigures(db, week.before, settings.timeZone),
  ]);
  const email = renderDigest(week, last, before, settings);
  const [row] = await run<{ claimed: number }>("digest_claim", CLAIM_AND_QUEUE, [
    week.sendDate,
    JSON.stringify([emailRow(email, messageIdDomain(settings.mailFrom))]),
  ]);
  return (row?.claimed ?? 0) > 0;
}

const CHECK_EVERY_MS = 60_000;

/** Checks every minute whether the digest is due; `onQueued` wakes the outbox. */
export function startWeeklyDigest(
  db: Database,
  run: RunStatement,
  settings: DigestSettings,
  onQueued: () => void,
  checkEveryMs = CHECK_EVERY_MS,
) {
  let running: Promise<unknown> = Promise.resolve();
  const check = () => {
    running = sendDueDigest(db, run, settings)
      .then((sent) => {
        if (!sent) return;
        log.info("weekly digest queued");
        onQueued();
      })
      .catch((error) => log.error({ err: error }, "weekly digest failed"));
  };
  check();
  const timer = setInterval(check, checkEveryMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

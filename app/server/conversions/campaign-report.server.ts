import { addDays, zonedInstant } from "~/lib/operator-time.ts";
import { DASHBOARD_TABLE_ROWS, topRows, type RestRow, type TopRows } from "~/lib/dashboard-figures.ts";
import type { SourceCounts } from "../analytics/index.server.ts";
import type { Database } from "../db/index.server.ts";
import { leadOutcomesBySource } from "../leads/index.server.ts";
import { ANSWERED_CALL_MIN_SECONDS } from "./action-defaults.server.ts";
import type { AnsweredCalls } from "./answered-calls.server.ts";
import { spendInRange } from "./spend.server.ts";
import { revenueBySource } from "../ledger/index.server.ts";

/**
 * What each source and campaign brought for what it cost, over the dashboard's days (the operator's, OPERATOR_TIME_ZONE): spend, the funnel
 * (page views → call clicks or form starts → leads → booked jobs) and answered calls once call tracking exists.
 * Leads marked Spam are left out. Revenue is what partners were charged for the referrals of the campaign's
 * leads, less the credits of returns, and profit is revenue less spend. Spend entered for a whole source (no
 * campaign) is set against all of that source's campaigns, on a row of its own.
 */

export interface CampaignRow {
  source: string;
  /** "" for visits without a campaign. */
  campaign: string;
  /** The row sums every campaign of the source: its spend was entered without a campaign. */
  allCampaigns: boolean;
  /** Null when no spend was entered for it. */
  costCents: number | null;
  views: number;
  calls: number;
  formStarts: number;
  leads: number;
  booked: number;
  /** Null without call tracking. */
  answeredCalls: number | null;
  costPerLeadCents: number | null;
  costPerBookedCents: number | null;
  /** Charges less credits, in minor units of CONVERSION_CURRENCY. */
  revenueCents: number;
  /** Revenue less spend (no spend entered: the revenue). */
  profitCents: number;
}

const key = (source: string, campaign: string) => JSON.stringify([source, campaign]);

/**
 * `counts` are the range's page views, call clicks and form starts per source and campaign (a medium is summed
 * in), as the dashboard reads them anyway: given, or still being read, rather than read twice.
 */
export async function campaignReport(
  db: Database,
  days: { from: string; to: string },
  timeZone: string,
  answeredCalls: AnsweredCalls | undefined,
  counts: Promise<SourceCounts[]>,
): Promise<CampaignRow[]> {
  const startsAt = zonedInstant(days.from, 0, timeZone);
  const endsAt = zonedInstant(addDays(days.to, 1), 0, timeZone);
  const [spend, countRows, outcomes, calls, revenue] = await Promise.all([
    spendInRange(db, days.from, days.to),
    counts,
    leadOutcomesBySource(db, startsAt, endsAt, timeZone),
    answeredCalls ? answeredCalls.counts(startsAt, endsAt, ANSWERED_CALL_MIN_SECONDS) : undefined,
    revenueBySource(db, startsAt, endsAt),
  ]);

  const rows = new Map<string, CampaignRow>();
  const row = (source: string, campaign: string, allCampaigns = false) => {
    const id = allCampaigns ? key(source, "\u0000all") : key(source, campaign);
    let found = rows.get(id);
    if (!found) {
      found = {
        source,
        campaign,
        allCampaigns,
        costCents: null,
        views: 0,
        calls: 0,
        formStarts: 0,
        leads: 0,
        booked: 0,
        answeredCalls: calls ? 0 : null,
        costPerLeadCents: null,
        costPerBookedCents: null,
        revenueCents: 0,
        profitCents: 0,
      };
      rows.set(id, found);
    }
    return found;
  };
  const wholeSources = new Set(spend.filter((cost) => cost.campaign === "").map((cost) => cost.source));
  const add = (source: string, campaign: string, figures: Partial<CampaignRow>) => {
    const targets = [row(source, campaign), ...(wholeSources.has(source) ? [row(source, "", true)] : [])];
    for (const target of targets) {
      target.views += figures.views ?? 0;
      target.calls += figures.calls ?? 0;
      target.formStarts += figures.formStarts ?? 0;
      target.leads += figures.leads ?? 0;
      target.booked += figures.booked ?? 0;
      target.revenueCents += figures.revenueCents ?? 0;
      if (target.answeredCalls !== null) target.answeredCalls += figures.answeredCalls ?? 0;
    }
  };
  for (const count of countRows) {
    add(count.source, count.campaign, { views: count.views, calls: count.calls, formStarts: count.formStarts });
  }
  for (const outcome of outcomes) add(outcome.source, outcome.campaign, outcome);
  for (const counted of calls ?? []) add(counted.source, counted.campaign, { answeredCalls: counted.calls });
  for (const earned of revenue) add(earned.source, earned.campaign, { revenueCents: earned.revenueMinor });
  for (const cost of spend) row(cost.source, cost.campaign, cost.campaign === "").costCents = cost.costCents;

  const per = (cost: number | null, count: number) => (cost === null || count === 0 ? null : Math.round(cost / count));
  return [...rows.values()]
    .map((found) => ({
      ...found,
      costPerLeadCents: per(found.costCents, found.leads),
      costPerBookedCents: per(found.costCents, found.booked),
      profitCents: found.revenueCents - (found.costCents ?? 0),
    }))
    .sort(
      (a, b) =>
        (b.costCents ?? -1) - (a.costCents ?? -1) ||
        b.leads - a.leads ||
        b.views - a.views ||
        key(a.source, a.campaign).localeCompare(key(b.source, b.campaign)),
    );
}

/** Figures summed over some of the cost table's rows. */
export interface CampaignSums {
  costCents: number;
  leads: number;
  booked: number;
  /** 0 without call tracking. */
  answeredCalls: number;
  revenueCents: number;
  profitCents: number;
}

/**
 * A row for spend entered for a whole source repeats its campaigns' leads, calls and revenue, so those are summed
 * over the campaign rows only; its cost is its own, so cost sums every row.
 */
function campaignSums(rows: CampaignRow[]): CampaignSums {
  const own = rows.filter((row) => !row.allCampaigns);
  const sum = (of: (row: CampaignRow) => number, over = own) => over.reduce((total, row) => total + of(row), 0);
  const costCents = sum((row) => row.costCents ?? 0, rows);
  const revenueCents = sum((row) => row.revenueCents);
  return {
    costCents,
    leads: sum((row) => row.leads),
    booked: sum((row) => row.booked),
    answeredCalls: sum((row) => row.answeredCalls ?? 0),
    revenueCents,
    profitCents: revenueCents - costCents,
  };
}

/** The funnel's figures of a source and campaign. */
type FunnelFigures = Pick<CampaignRow, "views" | "calls" | "formStarts" | "leads" | "booked">;

/**
 * The dashboard's two tables of a report's rows, each showing its first DASHBOARD_TABLE_ROWS and summing the rest in
 * one row: the cost table (every row, with a total of them all), and the funnel (campaign rows only).
 */
export function campaignTables(rows: CampaignRow[]): {
  cost: { top: CampaignRow[]; rest: RestRow<CampaignSums> | null; total: CampaignSums | null };
  funnel: TopRows<CampaignRow, FunnelFigures>;
} {
  const rest = rows.slice(DASHBOARD_TABLE_ROWS);
  return {
    cost: {
      top: rows.slice(0, DASHBOARD_TABLE_ROWS),
      rest: rest.length > 0 ? { rows: rest.length, figures: campaignSums(rest) } : null,
      total: rows.length > 0 ? campaignSums(rows) : null,
    },
    funnel: topRows(
      rows.filter((row) => !row.allCampaigns),
      ["views", "calls", "formStarts", "leads", "booked"],
    ),
  };
}

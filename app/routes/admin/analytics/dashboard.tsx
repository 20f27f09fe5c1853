import type { ReactNode } from "react";
import { data, Form } from "react-router";
import type { Route } from "./+types/dashboard";
import { DailyChart } from "./DailyChart.tsx";
import { ConsoleSection } from "../components/ConsoleSection.tsx";
import { FiguresTable, type FiguresColumn } from "./FiguresTable.tsx";
import { buttonClass, fieldClass, linkClass } from "../components/TableRegion.tsx";
import { parseDashboardRange, dashboardData, rangeDays } from "~/server/analytics/index.server.ts";
import {
  campaignReport,
  campaignTables,
  type CampaignRow,
  type CampaignSums,
} from "~/server/conversions/index.server.ts";
import { formatMoney } from "~/lib/money.ts";
import { changeAgainst, conversionsPer100Views, dashboardRanges } from "~/lib/dashboard-figures.ts";
import { requireOperator } from "~/server/console/index.server.ts";

/** Campaigns listed by profit on the first screen; the cost table below has them all. */
const CAMPAIGNS_BY_PROFIT = 10;

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const range = parseDashboardRange(new URL(request.url).searchParams);
  if (range === null) throw data("Choose 7, 30 or 90 days.", { status: 400 });
  const { db, conversions } = context.services;
  const timeZone = context.operatorTimeZone;
  const today = new Date();
  // The period before: as many of the operator's days, ending the day before this one starts.
  const dayBefore = new Date(rangeDays(range, timeZone, today).startsAt.getTime() - 1);
  const figuresOf = async (lastDay: Date) => {
    const reading = dashboardData(db, range, timeZone, lastDay);
    const [dashboard, report] = await Promise.all([
      reading,
      campaignReport(
        db,
        rangeDays(range, timeZone, lastDay),
        timeZone,
        conversions.answeredCalls,
        reading.then((figures) => figures.bySource.top),
      ),
    ]);
    return { dashboard, report };
  };
  const [{ dashboard, report }, before] = await Promise.all([figuresOf(today), figuresOf(dayBefore)]);
  const campaigns = campaignTables(report);
  return {
    ...dashboard,
    before: {
      from: before.dashboard.from,
      to: before.dashboard.to,
      leads: before.dashboard.totals.leads,
      calls: before.dashboard.totals.calls,
      phoneCalls: before.dashboard.phoneCalls.totals,
      campaigns: campaignTables(before.report).cost.total,
    },
    campaigns,
    byProfit: report
      .filter((row) => row.costCents !== null || row.revenueCents !== 0)
      .sort((a, b) => b.profitCents - a.profitCents)
      .slice(0, CAMPAIGNS_BY_PROFIT),
    currency: conversions.currency,
    callTracking: context.services.calls !== undefined,
    timeZone,
  };
}

const number = (value: number) => value.toLocaleString("en-US");
const per100 = (figures: { views: number; calls: number; leads: number }) => {
  const rate = conversionsPer100Views(figures);
  return rate === null ? "–" : rate.toFixed(1);
};
/** A campaign row's name: "(all campaigns)" for spend entered for a whole source. */
const campaignName = (row: CampaignRow) => (row.allCampaigns ? "(all campaigns)" : orNone(row.campaign));
/** "(none)" for a count without a source, medium or campaign: a direct visit, or one without campaign values. */
const orNone = (value: string) => value || "(none)";
/** The label of the row that sums a table's rows past the first 50. */
const restLabel = (rows: number, one: string, many = `${one}s`) => `${number(rows)} more ${rows === 1 ? one : many}`;

const views = { heading: "Page views", cell: (row: { views: number }) => number(row.views) };
const calls = { heading: "Calls", cell: (row: { calls: number }) => number(row.calls) };
const leads = { heading: "Leads", cell: (row: { leads: number }) => number(row.leads) };
const optOuts = { heading: "Opt-outs", cell: (row: { optOuts: number }) => number(row.optOuts) };
const conversionRate = { heading: "Calls + leads per 100 views", cell: per100 };

type PhoneCalls = { answered: number; missed: number };

/** A first-screen figure, its change against the period before, and what it counts when that needs saying. */
type Tile = { label: string; value: string; change: string; detail?: string };
const emptySums: CampaignSums = {
  costCents: 0,
  leads: 0,
  booked: 0,
  answeredCalls: 0,
  revenueCents: 0,
  profitCents: 0,
};

/**
 * The answered and missed phone calls of each row, from the call log, when call tracking is on; a row the
 * log has nothing for shows zeros. A rest row is not in the log's breakdown, so it shows a dash.
 */
function phoneCallColumns<Row>(on: boolean, rows: (PhoneCalls & Row)[], key: (row: Row) => string) {
  if (!on) return [];
  const found = new Map(rows.map((row) => [key(row), row]));
  const of = (row: Row) => found.get(key(row)) ?? { answered: 0, missed: 0 };
  return [
    { heading: "Answered calls", cell: (row: Row) => number(of(row).answered), rest: "–" },
    { heading: "Missed calls", cell: (row: Row) => number(of(row).missed), rest: "–" },
  ];
}

/** A row of the cost table that sums others: cost, leads, booked jobs, (answered calls), revenue and profit. */
function campaignSumRow(
  label: string,
  sums: CampaignSums,
  money: (cents: number | null) => string,
  callTracking: boolean,
) {
  return {
    label,
    cells: [
      money(sums.costCents),
      number(sums.leads),
      number(sums.booked),
      ...(callTracking ? [number(sums.answeredCalls)] : []),
      "–",
      "–",
      money(sums.revenueCents),
      money(sums.profitCents),
    ],
  };
}

/** A rest row's cells: each column's figure of the summed rows, or the column's own stand-in. */
function restCells<Figures>(columns: NoInfer<{ cell(row: Figures): ReactNode; rest?: string }>[], figures: Figures) {
  return columns.map((column) => column.rest ?? column.cell(figures));
}

/**
 * Which pages, placements and campaigns bring calls and leads: page views and calls counted by the site itself
 * (no cookies, no identifiers; docs/decisions/070), leads and opt-outs from the requests.
 */
export default function Dashboard({ loaderData: dashboard }: Route.ComponentProps) {
  const { totals, callTracking, phoneCalls, campaigns } = dashboard;
  const money = (cents: number | null) => (cents === null ? "–" : formatMoney(cents, dashboard.currency));
  const campaignLabels: [FiguresColumn<CampaignRow>, FiguresColumn<CampaignRow>] = [
    { heading: "Source", cell: (row) => orNone(row.source) },
    { heading: "Campaign", cell: campaignName },
  ];
  const campaignKey = (row: CampaignRow) => `${row.source}\u0000${row.campaign}\u0000${row.allCampaigns}`;
  const sourceKey = (row: { source: string; medium: string; campaign: string }) =>
    JSON.stringify([row.source, row.medium, row.campaign]);
  const dayFigures = [
    views,
    calls,
    ...phoneCallColumns(callTracking, phoneCalls.days, (row: { day: string }) => row.day),
    leads,
    optOuts,
  ];
  const pageFigures = [
    views,
    calls,
    ...phoneCallColumns(callTracking, phoneCalls.byPage, (row: { path: string }) => row.path),
    leads,
    conversionRate,
  ];
  const sourceFigures = [views, calls, ...phoneCallColumns(callTracking, phoneCalls.bySource, sourceKey), leads];
  const funnelFigures = [
    views,
    { heading: "Call taps", cell: (row: { calls: number }) => number(row.calls) },
    { heading: "Form starts", cell: (row: { formStarts: number }) => number(row.formStarts) },
    leads,
    { heading: "Booked jobs", cell: (row: { booked: number }) => number(row.booked) },
  ];
  const { before } = dashboard;
  const total = campaigns.cost.total ?? emptySums;
  const totalBefore = before.campaigns ?? emptySums;
  const perLead = (sums: CampaignSums) => (sums.leads === 0 ? null : Math.round(sums.costCents / sums.leads));
  const tiles: Tile[] = [
    callTracking
      ? {
          label: "Calls",
          value: number(phoneCalls.totals.answered + phoneCalls.totals.missed),
          detail: `${number(phoneCalls.totals.answered)} answered, ${number(phoneCalls.totals.missed)} missed`,
          change: changeAgainst(
            phoneCalls.totals.answered + phoneCalls.totals.missed,
            before.phoneCalls.answered + before.phoneCalls.missed,
          ),
        }
      : {
          label: "Calls",
          value: number(totals.calls),
          detail: "taps on a call link (call tracking is off)",
          change: changeAgainst(totals.calls, before.calls),
        },
    { label: "Leads", value: number(totals.leads), change: changeAgainst(totals.leads, before.leads) },
    { label: "Booked jobs", value: number(total.booked), change: changeAgainst(total.booked, totalBefore.booked) },
    { label: "Spend", value: money(total.costCents), change: changeAgainst(total.costCents, totalBefore.costCents) },
    {
      label: "Revenue",
      value: money(total.revenueCents),
      detail: "partners' charges for leads and calls, less credits",
      change: changeAgainst(total.revenueCents, totalBefore.revenueCents),
    },
    {
      label: "Profit",
      value: money(total.profitCents),
      change: changeAgainst(total.profitCents, totalBefore.profitCents),
    },
    {
      label: "Cost per lead",
      value: money(perLead(total)),
      change:
        perLead(total) === null || perLead(totalBefore) === null
          ? "–"
          : changeAgainst(perLead(total)!, perLead(totalBefore)!),
    },
  ];
  const period = `${dashboard.from} to ${dashboard.to}`;
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Dashboard</h1>
        <Form method="get" className="flex items-end gap-2">
          <div>
            <label htmlFor="dashboard-days" className="font-semibold text-slate-900">
              Range
            </label>
            <select id="dashboard-days" name="days" defaultValue={dashboard.range} className={fieldClass}>
              {dashboardRanges.map((range) => (
                <option key={range} value={range}>
                  Last {range} days
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonClass}>
            Show
          </button>
        </Form>
      </div>
      <p className="mt-2 text-slate-800">
        {period}, days in {dashboard.timeZone}; each change is against the {dashboard.range} days before ({before.from}{" "}
        to {before.to}).
      </p>

      <ConsoleSection id="figures" heading="How the business is doing" className="mt-6">
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {tiles.map((tile) => (
            <div key={tile.label} className="min-w-0 rounded border border-slate-300 p-3">
              <dt className="text-sm font-semibold text-slate-800">{tile.label}</dt>
              <dd className="mt-1 text-2xl font-bold break-words text-slate-900 tabular-nums">{tile.value}</dd>
              <dd className="text-sm text-slate-800">
                <span className="sr-only">Against the period before: </span>
                {tile.change}
              </dd>
              {tile.detail && <dd className="text-sm text-slate-700">{tile.detail}</dd>}
            </div>
          ))}
        </dl>
      </ConsoleSection>

      <ConsoleSection id="by-profit" heading="Campaigns by profit">
        <FiguresTable
          label="Revenue, spend and profit by campaign"
          caption={`The ${CAMPAIGNS_BY_PROFIT} campaigns with spend or revenue that made the most, revenue less spend`}
          rows={dashboard.byProfit}
          rowKey={campaignKey}
          labels={campaignLabels}
          figures={[
            { heading: "Revenue", cell: (row) => money(row.revenueCents) },
            { heading: "Spend", cell: (row) => money(row.costCents) },
            { heading: "Profit", cell: (row) => money(row.profitCents) },
          ]}
        />
      </ConsoleSection>

      <ConsoleSection id="per-day" heading="Per day">
        <DailyChart
          days={dashboard.days}
          title={`Calls and leads per day, ${period}`}
          summary={`${number(totals.calls)} calls and ${number(totals.leads)} leads in ${dashboard.days.length} days. The table "Figures per day" below lists each day.`}
        />
        <details className="mt-3">
          <summary className="cursor-pointer font-semibold text-slate-900">Figures per day (table)</summary>
          <FiguresTable
            label="Figures per day"
            caption="Page views, calls, leads and opt-outs per day, oldest first"
            rows={dashboard.days}
            rowKey={(day) => day.day}
            labels={[{ heading: "Day", cell: (day) => day.day }]}
            figures={dayFigures}
          />
        </details>
        <p className="mt-3">
          <a href={`/admin/export/site-events.csv?days=${dashboard.range}`} className={linkClass}>
            Download the daily counts (CSV)
          </a>
        </p>
      </ConsoleSection>

      <ConsoleSection id="by-page" heading="By page">
        <FiguresTable
          label="Page views, calls and leads by page"
          caption="Page views, calls and leads by page; leads by their landing page"
          rows={dashboard.byPage.top}
          rowKey={(page) => page.path}
          labels={[{ heading: "Page", cell: (page) => page.path || "(unknown)" }]}
          figures={pageFigures}
          sums={[
            dashboard.byPage.rest && {
              label: restLabel(dashboard.byPage.rest.rows, "page"),
              cells: restCells(pageFigures, { path: "", ...dashboard.byPage.rest.figures }),
            },
          ]}
        />
      </ConsoleSection>

      <ConsoleSection id="by-placement" heading="By placement">
        <FiguresTable
          label="Calls by where the call link sits"
          caption="Calls by where the call link sits on the page"
          rows={dashboard.byPlacement.top}
          rowKey={(row) => row.placement}
          labels={[{ heading: "Placement", cell: (row) => row.placement }]}
          figures={[calls]}
          sums={[
            dashboard.byPlacement.rest && {
              label: restLabel(dashboard.byPlacement.rest.rows, "placement"),
              cells: [calls.cell(dashboard.byPlacement.rest.figures)],
            },
          ]}
        />
      </ConsoleSection>

      <ConsoleSection id="by-source" heading="By source and campaign">
        <FiguresTable
          label="Page views, calls and leads by source and campaign"
          caption="Page views, calls and leads by the visit's source, medium and campaign"
          rows={dashboard.bySource.top}
          rowKey={(row) => `${row.source}\u0000${row.medium}\u0000${row.campaign}`}
          labels={[
            { heading: "Source", cell: (row) => orNone(row.source) },
            { heading: "Medium", cell: (row) => orNone(row.medium) },
            { heading: "Campaign", cell: (row) => orNone(row.campaign) },
          ]}
          figures={sourceFigures}
          sums={[
            dashboard.bySource.rest && {
              label: restLabel(dashboard.bySource.rest.rows, "source and campaign", "sources and campaigns"),
              cells: restCells(sourceFigures, {
                source: "",
                medium: "",
                campaign: "",
                ...dashboard.bySource.rest.figures,
              }),
            },
          ]}
        />
      </ConsoleSection>

      <ConsoleSection id="cost" heading="Cost by source and campaign">
        <p className="mt-2 max-w-3xl text-slate-800">
          Spend entered on the Conversions page, spread evenly over each month&apos;s days, against leads received and
          jobs booked in the range (leads marked Spam left out). A dash: no spend entered, or nothing to divide by.
        </p>
        <FiguresTable
          label="Cost, leads and booked jobs by source and campaign"
          caption="Cost, leads, booked jobs, cost per lead and cost per booked job by source and campaign"
          rows={campaigns.cost.top}
          rowKey={campaignKey}
          labels={campaignLabels}
          figures={[
            { heading: "Cost", cell: (row) => money(row.costCents) },
            leads,
            { heading: "Booked jobs", cell: (row) => number(row.booked) },
            ...(callTracking
              ? [{ heading: "Answered calls", cell: (row: CampaignRow) => number(row.answeredCalls ?? 0) }]
              : []),
            { heading: "Cost per lead", cell: (row) => money(row.costPerLeadCents) },
            { heading: "Cost per booked job", cell: (row) => money(row.costPerBookedCents) },
            { heading: "Revenue", cell: (row) => money(row.revenueCents) },
            { heading: "Profit", cell: (row) => money(row.profitCents) },
          ]}
          sums={[
            campaigns.cost.rest &&
              campaignSumRow(
                restLabel(campaigns.cost.rest.rows, "source and campaign", "sources and campaigns"),
                campaigns.cost.rest.figures,
                money,
                callTracking,
              ),
            campaigns.cost.total && campaignSumRow("Total", campaigns.cost.total, money, callTracking),
          ]}
        />
      </ConsoleSection>

      <ConsoleSection id="funnel" heading="Funnel by source and campaign">
        <p className="mt-2 max-w-3xl text-slate-800">
          From page views to call taps or form starts (the first input in a contact form), to leads, to booked jobs.
        </p>
        <FiguresTable
          label="Page views to booked jobs by source and campaign"
          caption="Page views, call taps, form starts, leads and booked jobs by source and campaign"
          rows={campaigns.funnel.top}
          rowKey={campaignKey}
          labels={campaignLabels}
          figures={funnelFigures}
          sums={[
            campaigns.funnel.rest && {
              label: restLabel(campaigns.funnel.rest.rows, "source and campaign", "sources and campaigns"),
              cells: restCells(funnelFigures, campaigns.funnel.rest.figures),
            },
          ]}
        />
      </ConsoleSection>
    </>
  );
}

import { data, Form } from "react-router";
import type { Route } from "./+types/dashboard";
import { DailyChart } from "./components/DailyChart.tsx";
import { DataTable, buttonClass, cellClass, fieldClass, linkClass } from "./components/TableRegion.tsx";
import { parseDashboardRange } from "~/server/analytics/dashboard-range.server.ts";
import { conversionsPer100Views, dashboardRanges } from "~/lib/dashboard-figures.ts";
import { dashboardData, rangeDays } from "~/server/analytics/dashboard.server.ts";
import { campaignReport, type CampaignRow } from "~/server/conversions/index.server.ts";
import { env } from "~/config/env.server.ts";
import { formatMoney } from "~/lib/money.ts";
import { requireOperator } from "~/server/console/operator.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const range = parseDashboardRange(new URL(request.url).searchParams);
  if (range === null) throw data("Choose 7, 30 or 90 days.", { status: 400 });
  const { db, conversions } = context.services;
  const today = new Date();
  const reading = dashboardData(db, range, today);
  const [dashboard, campaigns] = await Promise.all([
    reading,
    campaignReport(
      db,
      rangeDays(range, today),
      conversions.answeredCalls,
      reading.then((figures) => figures.bySource),
    ),
  ]);
  return { ...dashboard, campaigns, currency: env.CONVERSION_CURRENCY, callTracking: !!conversions.answeredCalls };
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

const numberCell = `${cellClass} text-right tabular-nums`;

/**
 * Which pages, placements and campaigns bring calls and leads: page views and calls counted by the site itself
 * (no cookies, no identifiers; docs/decisions/070), leads and opt-outs from the requests.
 */
export default function Dashboard({ loaderData: dashboard }: Route.ComponentProps) {
  const { totals } = dashboard;
  const money = (cents: number | null) => (cents === null ? "–" : formatMoney(cents, dashboard.currency));
  const figures: [string, string][] = [
    ["Page views", number(totals.views)],
    ["Calls", number(totals.calls)],
    ["Leads", number(totals.leads)],
    ["Opt-outs", number(totals.optOuts)],
    ["Calls + leads per 100 views", per100(totals)],
  ];
  const period = `${dashboard.from} to ${dashboard.to} (UTC)`;
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
      <p className="mt-2 text-slate-800">{period}</p>

      <section aria-labelledby="figures-heading" className="mt-6">
        <h2 id="figures-heading" className="text-xl font-bold text-slate-900">
          Figures
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5">
          {figures.map(([label, value]) => (
            <div key={label} className="rounded border border-slate-300 p-3">
              <dt className="text-sm font-semibold text-slate-800">{label}</dt>
              <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="per-day-heading" className="mt-8">
        <h2 id="per-day-heading" className="text-xl font-bold text-slate-900">
          Per day
        </h2>
        <DailyChart
          days={dashboard.days}
          title={`Page views, calls and leads per day, ${period}`}
          summary={`${number(totals.views)} page views, ${number(totals.calls)} calls and ${number(totals.leads)} leads in ${dashboard.days.length} days. The table below lists each day.`}
        />
        <DataTable
          label="Figures per day"
          caption="Page views, calls, leads and opt-outs per day, oldest first"
          headings={["Day", "Page views", "Calls", "Leads", "Opt-outs"]}
        >
          {dashboard.days.map((day) => (
            <tr key={day.day}>
              <th scope="row" className={`${cellClass} font-normal whitespace-nowrap`}>
                {day.day}
              </th>
              <td className={numberCell}>{number(day.views)}</td>
              <td className={numberCell}>{number(day.calls)}</td>
              <td className={numberCell}>{number(day.leads)}</td>
              <td className={numberCell}>{number(day.optOuts)}</td>
            </tr>
          ))}
        </DataTable>
        <p className="mt-3">
          <a href={`/admin/export/site-events.csv?days=${dashboard.range}`} className={linkClass}>
            Download the daily counts (CSV)
          </a>
        </p>
      </section>

      <section className="mt-8">
        <h2 className="text-xl font-bold text-slate-900">By page</h2>
        <DataTable
          label="By page"
          caption="Page views, calls and leads by page; leads by their landing page"
          headings={["Page", "Page views", "Calls", "Leads", "Calls + leads per 100 views"]}
        >
          {dashboard.byPage.map((page) => (
            <tr key={page.path}>
              <th scope="row" className={`${cellClass} font-normal`}>
                {page.path || "(unknown)"}
              </th>
              <td className={numberCell}>{number(page.views)}</td>
              <td className={numberCell}>{number(page.calls)}</td>
              <td className={numberCell}>{number(page.leads)}</td>
              <td className={numberCell}>{per100(page)}</td>
            </tr>
          ))}
        </DataTable>
      </section>

      <section className="mt-8">
        <h2 className="text-xl font-bold text-slate-900">By placement</h2>
        <DataTable
          label="By placement"
          caption="Calls by where the call link sits on the page"
          headings={["Placement", "Calls"]}
        >
          {dashboard.byPlacement.map((row) => (
            <tr key={row.placement}>
              <th scope="row" className={`${cellClass} font-normal`}>
                {row.placement}
              </th>
              <td className={numberCell}>{number(row.calls)}</td>
            </tr>
          ))}
        </DataTable>
      </section>

      <section className="mt-8">
        <h2 className="text-xl font-bold text-slate-900">By source and campaign</h2>
        <DataTable
          label="By source and campaign"
          caption="Page views, calls and leads by the visit's source, medium and campaign"
          headings={["Source", "Medium", "Campaign", "Page views", "Calls", "Leads"]}
        >
          {dashboard.bySource.map((row) => (
            <tr key={`${row.source}\u0000${row.medium}\u0000${row.campaign}`}>
              <th scope="row" className={`${cellClass} font-normal`}>
                {orNone(row.source)}
              </th>
              <td className={cellClass}>{orNone(row.medium)}</td>
              <td className={cellClass}>{orNone(row.campaign)}</td>
              <td className={numberCell}>{number(row.views)}</td>
              <td className={numberCell}>{number(row.calls)}</td>
              <td className={numberCell}>{number(row.leads)}</td>
            </tr>
          ))}
        </DataTable>
      </section>

      <section className="mt-8">
        <h2 className="text-xl font-bold text-slate-900">Cost by source and campaign</h2>
        <p className="mt-2 max-w-3xl text-slate-800">
          Spend entered on the Conversions page, spread evenly over each month&apos;s days, against leads received and
          jobs booked in the range (leads marked Spam left out). A dash: no spend entered, or nothing to divide by.
        </p>
        <DataTable
          label="Cost by source and campaign"
          caption="Cost, leads, booked jobs, cost per lead and cost per booked job by source and campaign"
          headings={[
            "Source",
            "Campaign",
            "Cost",
            "Leads",
            "Booked jobs",
            ...(dashboard.callTracking ? ["Answered calls"] : []),
            "Cost per lead",
            "Cost per booked job",
          ]}
        >
          {dashboard.campaigns.map((row) => (
            <tr key={`${row.source}\u0000${row.campaign}\u0000${row.allCampaigns}`}>
              <th scope="row" className={`${cellClass} font-normal`}>
                {orNone(row.source)}
              </th>
              <td className={cellClass}>{campaignName(row)}</td>
              <td className={numberCell}>{money(row.costCents)}</td>
              <td className={numberCell}>{number(row.leads)}</td>
              <td className={numberCell}>{number(row.booked)}</td>
              {dashboard.callTracking ? <td className={numberCell}>{number(row.answeredCalls ?? 0)}</td> : null}
              <td className={numberCell}>{money(row.costPerLeadCents)}</td>
              <td className={numberCell}>{money(row.costPerBookedCents)}</td>
            </tr>
          ))}
        </DataTable>
      </section>

      <section className="mt-8">
        <h2 className="text-xl font-bold text-slate-900">Funnel by source and campaign</h2>
        <p className="mt-2 max-w-3xl text-slate-800">
          From page views to call taps or form starts (the first input in a contact form), to leads, to booked jobs.
        </p>
        <DataTable
          label="Funnel by source and campaign"
          caption="Page views, call taps, form starts, leads and booked jobs by source and campaign"
          headings={["Source", "Campaign", "Page views", "Call taps", "Form starts", "Leads", "Booked jobs"]}
        >
          {dashboard.campaigns
            .filter((row) => !row.allCampaigns)
            .map((row) => (
              <tr key={`${row.source}\u0000${row.campaign}`}>
                <th scope="row" className={`${cellClass} font-normal`}>
                  {orNone(row.source)}
                </th>
                <td className={cellClass}>{campaignName(row)}</td>
                <td className={numberCell}>{number(row.views)}</td>
                <td className={numberCell}>{number(row.calls)}</td>
                <td className={numberCell}>{number(row.formStarts)}</td>
                <td className={numberCell}>{number(row.leads)}</td>
                <td className={numberCell}>{number(row.booked)}</td>
              </tr>
            ))}
        </DataTable>
      </section>
    </>
  );
}

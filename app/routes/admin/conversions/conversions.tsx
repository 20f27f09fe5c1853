import { data, Link } from "react-router";
import type { Route } from "./+types/conversions";
import { DataTable, buttonClass, fieldClass, linkClass } from "../components/TableRegion.tsx";
import { TextField } from "../components/FormField.tsx";
import { ACTION_NAME_MAX_LENGTH, SPEND_CSV_MAX_BYTES, SPEND_TEXT_MAX_LENGTH } from "~/lib/console-limits.ts";
import { AMOUNT_MAX_LENGTH, centsToDecimal, formatMoney } from "~/lib/money.ts";
import { formatTime } from "~/lib/operator-time.ts";
import {
  conversionActionMeanings,
  listDownloads,
  parseSpendFile,
  readBoundedForm,
  readConversionActions,
  recentSpend,
  saveConversionActions,
  saveSpend,
  validateConversionActions,
  validateSpend,
} from "~/server/conversions/index.server.ts";
import { done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { ConsoleSection } from "../components/ConsoleSection.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Conversions" }, { name: "robots", content: "noindex" }];

/** The actions shown: "Answered call" only once call tracking exists. */
const shownActions = (callTracking: boolean) =>
  callTracking ? (["lead", "booked", "referral", "call"] as const) : (["lead", "booked", "referral"] as const);

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db, conversions } = context.services;
  const [actions, downloads, spend] = await Promise.all([
    readConversionActions(db),
    listDownloads(db),
    recentSpend(db),
  ]);
  return {
    currency: context.services.conversions.currency,
    actions: shownActions(conversions.answeredCalls !== undefined).map((key) => ({
      ...actions[key],
      meaning: conversionActionMeanings[key],
      defaultValue: actions[key].defaultValueCents ? centsToDecimal(actions[key].defaultValueCents) : "",
    })),
    downloads: downloads.map((download) => ({
      ...download,
      createdAt: formatTime(download.createdAt, context.operatorTimeZone),
      platform: download.platform === "microsoft" ? "Microsoft Advertising" : "Google Ads",
    })),
    spend: spend.map((entry) => ({
      ...entry,
      month: entry.month.slice(0, 7),
      amount: formatMoney(entry.amountCents, context.services.conversions.currency),
    })),
  };
}

/** The spend CSV, with the form's other fields and multipart framing. */
const FORM_MAX_BYTES = SPEND_CSV_MAX_BYTES + 4 * 1024;

/** A refused form's errors, and what was typed, so the page shows it again (also without JavaScript). */
type ActionErrors =
  | { intent: "actions" | "spend"; errors: Record<string, string | undefined>; values: Record<string, string> }
  | { intent: "spend-csv"; errors: string[] };

/** "Save conversion actions", "Save spend" and "Upload spend": saved, then back here (POST, then redirect), or a 4xx. */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { db, conversions } = context.services;
  let form: FormData | "too-large";
  try {
    form = await readBoundedForm(request, FORM_MAX_BYTES);
  } catch {
    return data<ActionErrors>({ intent: "spend-csv", errors: ["The form could not be read."] }, { status: 400 });
  }
  if (form === "too-large") {
    const limit = `${SPEND_CSV_MAX_BYTES / 1024} KB`;
    return data<ActionErrors>({ intent: "spend-csv", errors: [`The file is larger than ${limit}.`] }, { status: 413 });
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const typed = () =>
    Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const here = "/admin/conversions";
  return context.services.consoleForms.once(request, operator, form, async () => {
    switch (text("intent")) {
      case "actions": {
        const result = validateConversionActions(form, shownActions(conversions.answeredCalls !== undefined));
        if (!result.ok) return invalid<ActionErrors>({ intent: "actions", errors: result.errors, values: typed() });
        await saveConversionActions(db, result.actions);
        return done("Conversion actions saved.", here);
      }
      case "spend": {
        const result = validateSpend({
          month: text("month"),
          source: text("source"),
          campaign: text("campaign"),
          amount: text("amount"),
        });
        if (!result.ok) return invalid<ActionErrors>({ intent: "spend", errors: result.errors, values: typed() });
        await saveSpend(db, [result.entry]);
        return done(`Spend of ${formatMoney(result.entry.amountCents, conversions.currency)} saved.`, here);
      }
      case "spend-csv": {
        const result = await parseSpendFile(form.get("file"));
        if (!result.ok) return invalid<ActionErrors>({ intent: "spend-csv", errors: result.errors });
        await saveSpend(db, result.entries);
        return done(
          result.entries.length === 1 ? "1 month of spend saved." : `${result.entries.length} months of spend saved.`,
          here,
        );
      }
      default:
        return invalid<ActionErrors>({ intent: "spend-csv", errors: ["Unknown form."] });
    }
  });
}

/**
 * What is sent back to the ad platforms, and what they cost: the conversion actions, the downloads of the import
 * files for Google Ads and Microsoft Advertising, and monthly spend per source and campaign.
 */
export default function Conversions({ loaderData, actionData }: Route.ComponentProps) {
  const actionErrors = (actionData?.intent === "actions" ? actionData.errors : undefined) ?? {};
  const actionValues = actionData?.intent === "actions" ? actionData.values : undefined;
  const spendErrors = (actionData?.intent === "spend" ? actionData.errors : undefined) ?? {};
  const spendValues = (actionData?.intent === "spend" ? actionData.values : undefined) ?? {};
  const csvErrors = (actionData?.intent === "spend-csv" ? actionData.errors : undefined) ?? [];
  const { currency } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Conversions</h1>

      <ConsoleSection id="downloads" heading="Downloads" className="mt-6">
        <p className="mt-2 max-w-3xl text-slate-800">
          Each file holds the conversions no earlier file for that platform held, from ad clicks of the last 90 days.
          Import it in the ad platform (see the README); every file is kept below for a year and can be downloaded
          again. Or let the platforms fetch their files themselves:{" "}
          <Link to="/admin/conversions/scheduled" className={linkClass}>
            Scheduled fetch
          </Link>
          .
        </p>
        <div className="mt-3 flex flex-wrap gap-3">
          <form method="post" action="/admin/conversions/download">
            <input type="hidden" name="platform" value="google" />
            <button type="submit" className={wrappingButtonClass}>
              Download Google Ads conversions (CSV)
            </button>
          </form>
          <form method="post" action="/admin/conversions/download">
            <input type="hidden" name="platform" value="microsoft" />
            <button type="submit" className={wrappingButtonClass}>
              Download Microsoft Ads conversions (CSV)
            </button>
          </form>
        </div>
        {loaderData.downloads.length === 0 ? (
          <p className="mt-3 text-slate-800">No downloads yet.</p>
        ) : (
          <DataTable
            label="Past downloads"
            caption="Conversion files downloaded, newest first"
            headings={["Downloaded", "Platform", "Rows", "File"]}
          >
            {loaderData.downloads.map((download) => (
              <tr key={download.id}>
                <th scope="row" className="font-normal whitespace-nowrap">
                  {download.createdAt}
                </th>
                <td>{download.platform}</td>
                <td className="text-right tabular-nums">{download.rowCount}</td>
                {/* Relative: the screen-reader text stays inside the table's scrolling region. */}
                <td className="relative">
                  <a href={`/admin/conversions/downloads/${download.id}`} className={linkClass}>
                    Download again
                    <span className="sr-only">
                      {" "}
                      ({download.platform}, {download.createdAt})
                    </span>
                  </a>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </ConsoleSection>

      <ConsoleSection id="actions" heading="Conversion actions">
        <p className="mt-2 max-w-3xl text-slate-800">
          Each name must match the conversion action in Google Ads and Microsoft Advertising. Values are in {currency};
          a booked lead&apos;s own job value replaces the default.
        </p>
        <ConsoleForm name="actions" className="mt-3 grid max-w-3xl gap-4">
          {loaderData.actions.map((action) => (
            <fieldset key={action.action} className="grid gap-3 rounded border border-slate-300 p-4 sm:grid-cols-2">
              <legend className="px-1 font-bold text-slate-900">{action.meaning}</legend>
              <TextField
                id={`${action.action}-name`}
                name={`${action.action}-name`}
                label="Name"
                defaultValue={actionValues ? actionValues[`${action.action}-name`] : action.name}
                maxLength={ACTION_NAME_MAX_LENGTH}
                error={actionErrors[`${action.action}-name`]}
              />
              <TextField
                id={`${action.action}-value`}
                name={`${action.action}-value`}
                label={`Default value (${currency})`}
                defaultValue={actionValues ? actionValues[`${action.action}-value`] : action.defaultValue}
                inputMode="decimal"
                maxLength={AMOUNT_MAX_LENGTH}
                error={actionErrors[`${action.action}-value`]}
              />
              <div className="flex items-center gap-2 sm:col-span-2">
                <input
                  id={`${action.action}-enabled`}
                  name={`${action.action}-enabled`}
                  type="checkbox"
                  defaultChecked={actionValues ? actionValues[`${action.action}-enabled`] === "on" : action.enabled}
                  className="h-5 w-5"
                />
                <label htmlFor={`${action.action}-enabled`} className="text-slate-900">
                  Send this conversion
                </label>
              </div>
            </fieldset>
          ))}
          <div>
            <button type="submit" className={buttonClass}>
              Save conversion actions
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="spend" heading="Spend">
        <p className="mt-2 max-w-3xl text-slate-800">
          What each source cost in a month, in {currency}: the source as the visits name it (their utm_source), and the
          campaign as their utm_campaign, or no campaign for the whole source. Saving the same month, source and
          campaign again replaces the amount. The dashboard shows cost per lead and per booked job.
        </p>
        <ConsoleForm name="spend" className="mt-3 grid max-w-3xl gap-4 sm:grid-cols-2">
          <TextField
            id="spend-month"
            name="month"
            label="Month"
            type="month"
            placeholder="2026-11"
            defaultValue={spendValues.month}
            error={spendErrors.month}
          />
          <TextField
            id="spend-source"
            name="source"
            label="Source"
            defaultValue={spendValues.source}
            maxLength={SPEND_TEXT_MAX_LENGTH}
            error={spendErrors.source}
          />
          <TextField
            id="spend-campaign"
            name="campaign"
            label="Campaign (optional)"
            defaultValue={spendValues.campaign}
            maxLength={SPEND_TEXT_MAX_LENGTH}
            error={spendErrors.campaign}
          />
          <TextField
            id="spend-amount"
            name="amount"
            label={`Amount (${currency})`}
            defaultValue={spendValues.amount}
            inputMode="decimal"
            maxLength={AMOUNT_MAX_LENGTH}
            error={spendErrors.amount}
          />
          <div className="sm:col-span-2">
            <button type="submit" className={buttonClass}>
              Save spend
            </button>
          </div>
        </ConsoleForm>

        <ConsoleForm name="spend-csv" encType="multipart/form-data" className="mt-6 grid max-w-3xl gap-3">
          <div>
            <label htmlFor="spend-file" className="font-semibold text-slate-900">
              Spend CSV
            </label>
            <input
              id="spend-file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              aria-describedby={csvErrors.length ? "spend-file-hint spend-file-errors" : "spend-file-hint"}
              aria-invalid={csvErrors.length ? true : undefined}
              className={fieldClass}
            />
            <p id="spend-file-hint" className="mt-1 text-sm text-slate-700">
              A first row Month,Source,Campaign,Amount, then one row each, such as 2026-11,google,spring-drains,1250.00;
              up to {SPEND_CSV_MAX_BYTES / 1024} KB. One bad row and nothing is saved.
            </p>
            {csvErrors.length ? (
              <ul id="spend-file-errors" role="alert" className="mt-2 list-disc pl-5 font-semibold text-red-800">
                {csvErrors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </ul>
            ) : null}
          </div>
          <div>
            <button type="submit" className={buttonClass}>
              Upload spend
            </button>
          </div>
        </ConsoleForm>

        {loaderData.spend.length === 0 ? (
          <p className="mt-4 text-slate-800">No spend entered yet.</p>
        ) : (
          <DataTable
            label="Spend entered"
            caption="Spend entered, latest month first"
            headings={["Month", "Source", "Campaign", "Amount"]}
          >
            {loaderData.spend.map((entry) => (
              <tr key={`${entry.month}\u0000${entry.source}\u0000${entry.campaign}`}>
                <th scope="row" className="font-normal whitespace-nowrap">
                  {entry.month}
                </th>
                <td>{entry.source}</td>
                <td>{entry.campaign || "(all campaigns)"}</td>
                <td className="text-right tabular-nums">{entry.amount}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </ConsoleSection>
    </>
  );
}

/** The download buttons' labels are long: on a phone they wrap rather than widen the page. */
const wrappingButtonClass = `${buttonClass.replace("whitespace-nowrap", "")} text-left`;

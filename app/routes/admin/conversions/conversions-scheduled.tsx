import { Link } from "react-router";
import type { Route } from "./+types/conversions-scheduled";
import { buttonClass, dangerButtonClass, linkClass } from "../components/TableRegion.tsx";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { confirmFirst, confirmed, invalid, requireOperator, revealed } from "~/server/console/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";
import {
  adPlatforms,
  rollScheduledFetchPassword,
  scheduledFetchCredentials,
} from "~/server/conversions/index.server.ts";
import { formatTime } from "~/lib/operator-time.ts";

export const meta: Route.MetaFunction = () => [{ title: "Scheduled fetch" }, { name: "robots", content: "noindex" }];

/** The buttons name the platform in full: on a phone they wrap rather than widen the page. */
const wrappingButtonClass = `${buttonClass.replace("whitespace-nowrap", "")} text-left`;
const wrappingDangerButtonClass = `${dangerButtonClass.replace("whitespace-nowrap", "")} text-left`;

const PLATFORM_NAMES = { google: "Google Ads", microsoft: "Microsoft Advertising" } as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const platforms = await scheduledFetchCredentials(context.services.db);
  return {
    platforms: platforms.map((entry) => ({
      platform: entry.platform,
      name: PLATFORM_NAMES[entry.platform],
      url: new URL(entry.path, request.url).href,
      username: entry.credentials?.username ?? null,
      rolledAt: entry.credentials ? formatTime(entry.credentials.rolledAt, context.operatorTimeZone) : null,
    })),
  };
}

const PAGE = "/admin/conversions/scheduled";

/** What the answer shows: the new username and password, this once, or why nothing was made. */
interface Answer {
  error?: string;
  made?: { name: string; username: string; password: string };
}

/**
 * "Make a username and password" or "Roll password" (asked first: the password in use stops working): the password
 * shown in this answer only, and made once however often the form is sent.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const { db, consoleForms } = context.services;
  return consoleForms.once(request, operator, form, async () => {
    const platform = adPlatforms.find((known) => known === form.get("platform"));
    if (!platform) return invalid<Answer>({ error: "Choose Google Ads or Microsoft Advertising." });
    const name = PLATFORM_NAMES[platform];
    const current = (await scheduledFetchCredentials(db)).find((entry) => entry.platform === platform);
    if (current?.credentials && !confirmed(form)) {
      return confirmFirst(
        `Roll the password for ${name}? The one it uses now stops working at once: its scheduled fetches fail until you paste the new one. This cannot be undone.`,
        "Yes, roll password",
      );
    }
    const made = await rollScheduledFetchPassword(db, platform);
    return revealed<Answer>(`New password made for ${name}.`, PAGE, { made: { name, ...made } });
  });
}

/** The ad platforms' scheduled fetches: the URL, the username, and a password shown once. */
export default function ConversionsScheduled({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Scheduled fetch</h1>
      <p className="mt-2 max-w-3xl text-slate-800">
        Google Ads and Microsoft Advertising can fetch their conversions file from this site on a schedule, with a
        username and password. Each fetch gets the conversions no earlier file for that platform held, and is listed
        with the{" "}
        <Link to="/admin/conversions" className={linkClass}>
          downloads
        </Link>
        . A wrong password gets nothing, and tries are limited.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
          {actionData.error}
        </p>
      ) : null}
      {actionData?.made ? (
        <div role="status" className="mt-3 rounded border border-green-800 bg-green-50 p-3 text-slate-900">
          <p className="font-semibold">
            New password for {actionData.made.name}. Copy it into the schedule now: it is not shown again, and the one
            before it no longer works.
          </p>
          <p className="mt-2">
            Username <code className="break-all">{actionData.made.username}</code>, password{" "}
            <code className="break-all">{actionData.made.password}</code>
          </p>
        </div>
      ) : null}
      {loaderData.platforms.map((entry) => (
        <section
          key={entry.platform}
          aria-labelledby={`${entry.platform}-heading`}
          className="mt-6 rounded border border-slate-300 p-4"
        >
          <h2 id={`${entry.platform}-heading`} className="text-xl font-bold text-slate-900">
            {entry.name}
          </h2>
          <dl className="mt-2 grid gap-1 text-slate-900 sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-semibold">URL</dt>
            <dd>
              <code className="break-all">{entry.url}</code>
            </dd>
            <dt className="font-semibold">Username</dt>
            <dd>{entry.username ? <code className="break-all">{entry.username}</code> : "None yet"}</dd>
            <dt className="font-semibold">Password</dt>
            <dd>{entry.rolledAt ? `Made ${entry.rolledAt}; shown only then.` : "None yet"}</dd>
          </dl>
          <ConsoleForm name="roll" row={entry.platform} destructive={Boolean(entry.username)} className="mt-3">
            <input type="hidden" name="platform" value={entry.platform} />
            <button type="submit" className={entry.username ? wrappingDangerButtonClass : wrappingButtonClass}>
              {entry.username ? `Roll password for ${entry.name}` : `Make a username and password for ${entry.name}`}
            </button>
          </ConsoleForm>
        </section>
      ))}
    </>
  );
}

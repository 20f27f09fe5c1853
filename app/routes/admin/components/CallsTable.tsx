import { Link } from "react-router";
import { DataTable, linkClass } from "./TableRegion.tsx";
import { telHref } from "./links.ts";
import type { CallRow } from "~/server/calls/index.server.ts";

/** "1 min 35 s", "40 s", or a dash while the call rings or its length is unknown. */
function formatDuration(seconds: number | null): string {
  if (seconds === null) return "–";
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

/** The thread of texts with a caller, when their number can be texted. */
function textsPath(caller: string): string | null {
  return /^\+[1-9]\d{6,14}$/.test(caller) ? `/admin/texts/${caller.slice(1)}` : null;
}

/** A routed call's route: the partners who rang and how each answered, then billable or why not, and the charge. */
function RouteCell({ route }: { route: CallRow["route"] }) {
  if (!route) return <>–</>;
  return (
    <>
      {route.rang.length > 0 ? (
        <ol className="list-decimal pl-5">
          {route.rang.map((step, index) => (
            <li key={index}>{step}</li>
          ))}
        </ol>
      ) : null}
      <span className="block font-semibold">{route.charge ? `${route.billing}: ${route.charge}` : route.billing}</span>
    </>
  );
}

/**
 * Calls as the console lists them: who called which number, the outcome, where the visit came from, the recording;
 * with texting on, a link to the texts with each caller; when calls were routed to partners, each call's route.
 */
export function CallsTable({
  label,
  caption,
  rows,
  textingOn,
}: {
  label: string;
  caption: string;
  rows: CallRow[];
  textingOn: boolean;
}) {
  const routed = rows.some((call) => call.route !== null);
  return (
    <DataTable
      label={label}
      caption={caption}
      headings={[
        "Time",
        "Caller",
        "Number called",
        "Outcome",
        "Duration",
        ...(routed ? ["Route"] : []),
        "Source / medium / campaign",
        "Landing page",
        "Recording",
      ]}
    >
      {rows.map((call) => (
        <tr key={call.id}>
          <td className="whitespace-nowrap">{call.time}</td>
          <th scope="row" className="font-normal whitespace-nowrap">
            <a href={telHref(call.caller)} className={linkClass}>
              {call.caller}
            </a>
            {call.leadId ? (
              <>
                {" "}
                <Link to={`/admin/leads/${call.leadId}`} className={`${linkClass} text-sm`}>
                  Lead
                </Link>
              </>
            ) : null}
            {textingOn && textsPath(call.caller) ? (
              <>
                {" "}
                <Link to={textsPath(call.caller)!} className={`${linkClass} text-sm`}>
                  Texts
                </Link>
              </>
            ) : null}
          </th>
          <td className="whitespace-nowrap">
            {call.called}
            <span className="block text-xs text-slate-700">{call.lineLabel}</span>
          </td>
          <td>{call.outcome}</td>
          <td className="whitespace-nowrap">{formatDuration(call.durationSeconds)}</td>
          {routed ? (
            <td className="min-w-56">
              <RouteCell route={call.route} />
            </td>
          ) : null}
          <td>
            {[call.source, call.medium, call.campaign].some(Boolean)
              ? [call.source ?? "–", call.medium ?? "–", call.campaign ?? "–"].join(" / ")
              : "–"}
            {call.gclid ? <span className="block text-xs break-all text-slate-700">gclid {call.gclid}</span> : null}
          </td>
          <td>{call.landingPath ?? "–"}</td>
          <td>
            {call.hasRecording ? (
              // A phone call's recording has no transcript to caption it with; the row beside it says who called when.
              // eslint-disable-next-line jsx-a11y/media-has-caption
              <audio
                controls
                preload="none"
                src={`/admin/calls/${call.id}/recording`}
                aria-label={`Recording of the call from ${call.caller}, ${call.time}`}
                className="w-56 max-w-full"
              />
            ) : (
              "–"
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

import { data } from "react-router";
import type { Route } from "./+types/opt-outs";
import { ConsoleSection } from "../components/ConsoleSection.tsx";
import { DataTable, buttonClass, linkClass } from "../components/TableRegion.tsx";
import { done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { listOptOuts, markOptOutDone } from "~/server/leads/index.server.ts";
import { isRowId } from "~/lib/row-id.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Opt-out requests" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return listOptOuts(context.services.db, new Date(), context.operatorTimeZone);
}

/** "Mark done": records who and when, then back to the list; a request that is not open changes nothing. */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const id = form.get("id");
  if (!isRowId(id)) return data({ error: "That is not an opt-out request." }, { status: 400 });
  return context.services.consoleForms.once(request, operator, form, async () => {
    if (!(await markOptOutDone(context.services.db, id, operator.email))) {
      return invalid({ error: "That request is not open: it was already marked done, or it no longer exists." }, 409);
    }
    return done("Opt-out request marked done.", "/admin/opt-outs");
  });
}

/** Open opt-out requests, soonest due first, with "Mark done"; those done are listed below. */
export default function OptOuts({ loaderData, actionData }: Route.ComponentProps) {
  const { open, done } = loaderData;
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Opt-out requests</h1>
        <a href="/admin/export/opt-outs.csv" className={linkClass}>
          Download all opt-outs (CSV)
        </a>
      </div>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
          {actionData.error}
        </p>
      ) : null}

      <ConsoleSection
        id="open"
        heading={`Open (${open.length})`}
        className="mt-6"
        isEmpty={open.length === 0}
        emptyText="No open requests."
      >
        <DataTable
          label="Open opt-out requests"
          caption="Open opt-out requests, soonest due first"
          headings={["Name", "Email", "Received", "Due", "Days left", "Message", "Action"]}
        >
          {open.map((request) => (
            <tr key={request.id}>
              <th scope="row" className="font-normal">
                {request.name}
              </th>
              <td>
                <a href={`mailto:${request.email}`} className={`${linkClass} break-all`}>
                  {request.email}
                </a>
              </td>
              <td className="whitespace-nowrap">{request.receivedAt}</td>
              <td className="whitespace-nowrap">{request.dueDate}</td>
              <td className="whitespace-nowrap">
                {request.overdue ? (
                  <strong className="rounded bg-red-100 px-2 py-0.5 text-red-900 ring-1 ring-red-800">
                    {request.deadline}
                  </strong>
                ) : (
                  request.deadline
                )}
              </td>
              <td className="break-words whitespace-pre-wrap">{request.message ?? ""}</td>
              <td>
                <ConsoleForm name="done" row={request.id}>
                  <input type="hidden" name="id" value={request.id} />
                  <button type="submit" className={buttonClass} aria-label={`Mark done: ${request.name}`}>
                    Mark done
                  </button>
                </ConsoleForm>
              </td>
            </tr>
          ))}
        </DataTable>
      </ConsoleSection>

      <ConsoleSection id="done" heading="Done" isEmpty={done.length === 0} emptyText="None marked done yet.">
        <DataTable
          label="Opt-out requests done"
          caption="Opt-out requests done, most recent first"
          headings={["Name", "Email", "Received", "Done", "Done by"]}
        >
          {done.map((request) => (
            <tr key={request.id}>
              <th scope="row" className="font-normal">
                {request.name}
              </th>
              <td className="break-all">{request.email}</td>
              <td className="whitespace-nowrap">{request.receivedAt}</td>
              <td className="whitespace-nowrap">{request.completedAt}</td>
              <td className="break-all">{request.completedBy ?? "the command line"}</td>
            </tr>
          ))}
        </DataTable>
      </ConsoleSection>
    </>
  );
}

import { data } from "react-router";
import type { Route } from "./+types/partner-statement[.]csv";
import { isRowId } from "~/lib/row-id.ts";
import { requireOperator } from "~/server/console/index.server.ts";
import { findStatement } from "~/server/ledger/index.server.ts";

/** "Download statement (CSV)": the statement exactly as it was issued, the same bytes every time. */
export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const id = params.statementId.replace(/\.csv$/, "");
  const statement = isRowId(id) ? await findStatement(context.services.db, id) : null;
  if (!statement || statement.partnerId !== params.id) throw data(null, { status: 404 });
  return new Response(statement.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statement-${statement.number}-${statement.period}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

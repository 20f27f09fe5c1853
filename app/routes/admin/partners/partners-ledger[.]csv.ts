import type { Route } from "./+types/partners-ledger[.]csv";
import { requireOperator } from "~/server/console/index.server.ts";
import { ledgerCsv, parseLedgerRange } from "~/server/ledger/index.server.ts";
import { listPartners } from "~/server/partners/index.server.ts";

/** "Download ledger (CSV)": every partner's entries of a month or a range of months, for the accountant. */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const parsed = parseLedgerRange(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return new Response(`${parsed.error}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const { db, conversions } = context.services;
  const partners = await listPartners(db);
  const csv = await ledgerCsv(db, parsed.range, {
    timeZone: context.operatorTimeZone,
    currency: conversions.currency,
    partnerNames: new Map(partners.map((partner) => [partner.id, `${partner.name} (${partner.business})`])),
  });
  const { from, to } = parsed.range;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="ledger-${from === to ? from : `${from}-to-${to}`}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

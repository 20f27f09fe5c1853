import { data } from "react-router";
import type { Route } from "./+types/partner-statement-preview";
import { StatementSheet } from "~/components/StatementSheet.tsx";
import { requireOperator } from "~/server/console/index.server.ts";
import { findPartner } from "~/server/partners/index.server.ts";

/** "Preview statement": the partner's statement of the month in progress as it would be issued today. */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Statement preview: ${loaded.partnerName}` : "Statement preview" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = context.services;
  const partner = await findPartner(db, params.id);
  if (!partner) throw data(null, { status: 404 });
  return { partnerName: partner.name, preview: await context.services.referrals.statementPreview(partner) };
}

export default function PartnerStatementPreview({ loaderData }: Route.ComponentProps) {
  const { partnerName, preview } = loaderData;
  return (
    <StatementSheet
      title={`Statement preview: ${partnerName}`}
      notice="Not issued: the month in progress as its statement would read today. The partner is sent theirs when the month is over."
      statement={preview}
    />
  );
}

import { data } from "react-router";
import type { Route } from "./+types/statement";
import { siteConfig } from "~/config/site.ts";
import { StatementSheet } from "~/components/StatementSheet.tsx";

/** A partner's monthly statement, from the signed link in its email: the statement exactly as it was issued. */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Statement ${loaded.number} | ${siteConfig.companyName}` : siteConfig.companyName },
  { name: "robots", content: "noindex, nofollow" },
];

/** The token is the partner's access: never cached, indexed, or sent to another site as a referrer. */
export const headers: Route.HeadersFunction = () => ({
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
});

export async function loader({ context, params }: Route.LoaderArgs) {
  const statement = await context.services.referrals.statementPage(params.token);
  if (!statement) throw data("This link is not valid.", { status: 404 });
  return statement;
}

export default function Statement({ loaderData }: Route.ComponentProps) {
  return <StatementSheet title={`${siteConfig.companyName}: statement ${loaderData.number}`} statement={loaderData} />;
}

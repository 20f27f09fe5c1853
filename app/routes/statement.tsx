import { data } from "react-router";
import type { Route } from "./+types/statement";
import { siteConfig } from "~/config/site.ts";
import { signedLinkHeaders, signedLinkMeta } from "~/lib/signed-link-page.ts";
import { StatementSheet } from "~/components/StatementSheet.tsx";

/** A partner's monthly statement, from the signed link in its email: the statement exactly as it was issued. */

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  signedLinkMeta(loaded ? `Statement ${loaded.number} | ${siteConfig.companyName}` : siteConfig.companyName);

export const headers: Route.HeadersFunction = signedLinkHeaders;

export async function loader({ context, params }: Route.LoaderArgs) {
  const statement = await context.services.referrals.statementPage(params.token);
  if (!statement) throw data("This link is not valid.", { status: 404 });
  return statement;
}

export default function Statement({ loaderData }: Route.ComponentProps) {
  return <StatementSheet title={`${siteConfig.companyName}: statement ${loaderData.number}`} statement={loaderData} />;
}

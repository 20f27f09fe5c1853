import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/partners";
import { DataTable, cellClass, linkClass } from "./components/TableRegion.tsx";
import { PartnerForm } from "./components/PartnerForm.tsx";
import { PARTNER_SERVICES } from "~/lib/partner-services.ts";
import { requireOperator } from "~/server/console/index.server.ts";
import { formatDuration } from "~/lib/duration.ts";
import { addPartner, listPartners, validatePartner } from "~/server/partners/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Partners" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return { partners: await listPartners(context.services.db), services: PARTNER_SERVICES };
}

/** "Save partner" for a new partner, then back to the list (POST, then redirect), or the form's errors with a 400. */
export async function action({ context, request }: Route.ActionArgs) {
  requireOperator(context);
  const result = validatePartner(await request.formData());
  if (!result.success) return data({ errors: result.errors }, { status: 400 });
  await addPartner(context.services.db, result.partner);
  return redirect("/admin/partners", 303);
}

function acceptanceRate(offered: number, accepted: number): string {
  return offered === 0 ? "None offered" : `${Math.round((accepted / offered) * 100)}%`;
}

/** The partner plumbers leads are referred to, how each answers, and the form to add one. */
export default function Partners({ loaderData, actionData }: Route.ComponentProps) {
  const { partners, services } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Partners</h1>
      {partners.length === 0 ? (
        <p className="mt-4 text-slate-800">No partners yet: add the first one below.</p>
      ) : (
        <DataTable
          label="Partners"
          caption="Partner plumbers and how they answer referrals"
          headings={[
            "Name",
            "Business",
            "Phone",
            "Services",
            "Offered",
            "Accepted",
            "Acceptance rate",
            "Median time to answer",
            "Status",
          ]}
        >
          {partners.map((partner) => (
            <tr key={partner.id}>
              <th scope="row" className={`${cellClass} font-normal`}>
                <Link to={`/admin/partners/${partner.id}`} className={linkClass}>
                  {partner.name}
                </Link>
              </th>
              <td className={cellClass}>{partner.business}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{partner.phone}</td>
              <td className={cellClass}>{partner.services.join(", ")}</td>
              <td className={cellClass}>{partner.offered}</td>
              <td className={cellClass}>{partner.accepted}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{acceptanceRate(partner.offered, partner.accepted)}</td>
              <td className={`${cellClass} whitespace-nowrap`}>
                {partner.medianAnswerSeconds === null ? "No answers yet" : formatDuration(partner.medianAnswerSeconds)}
              </td>
              <td className={cellClass}>{partner.active ? "Active" : "Deactivated"}</td>
            </tr>
          ))}
        </DataTable>
      )}

      <section aria-labelledby="add-partner-heading" className="mt-8">
        <h2 id="add-partner-heading" className="text-xl font-bold text-slate-900">
          Add a partner
        </h2>
        <PartnerForm values={null} errors={actionData?.errors} services={services} />
      </section>
    </>
  );
}

import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/partner";
import { buttonClass, linkClass } from "./components/TableRegion.tsx";
import { PartnerForm } from "./components/PartnerForm.tsx";
import { PARTNER_SERVICES } from "~/lib/partner-services.ts";
import { requireOperator } from "~/server/console/index.server.ts";
import { editPartner, findPartner, setPartnerActive, validatePartner } from "~/server/partners/index.server.ts";

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Partner: ${loaded.partner.name}` : "Partner" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const partner = await findPartner(context.services.db, params.id);
  if (!partner) throw data(null, { status: 404 });
  return { partner, services: PARTNER_SERVICES };
}

/** "Save partner", "Deactivate" or "Activate again", then back to the list; the form's errors with a 400. */
export async function action({ context, params, request }: Route.ActionArgs) {
  requireOperator(context);
  const form = await request.formData();
  const intent = form.get("intent");
  const db = context.services.db;
  if (intent === "deactivate" || intent === "activate") {
    if (!(await setPartnerActive(db, params.id, intent === "activate"))) throw data(null, { status: 404 });
    return redirect("/admin/partners", 303);
  }
  if (intent !== "save") throw data(null, { status: 400 });
  const result = validatePartner(form);
  if (!result.success) return data({ errors: result.errors }, { status: 400 });
  if (!(await editPartner(db, params.id, result.partner))) throw data(null, { status: 404 });
  return redirect("/admin/partners", 303);
}

/** One partner: edit their details, or deactivate them (they keep their history, and get no new referrals). */
export default function Partner({ loaderData, actionData }: Route.ComponentProps) {
  const { partner, services } = loaderData;
  return (
    <>
      <p>
        <Link to="/admin/partners" className={linkClass}>
          Back to the partners
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold text-slate-900">{partner.name}</h1>
      <p className="mt-1 text-slate-800">
        {partner.active ? "Active: offered in the Refer section of leads." : "Deactivated: not offered new referrals."}
      </p>
      <PartnerForm values={partner} errors={actionData?.errors} services={services} />
      <Form method="post" className="mt-6">
        <input type="hidden" name="intent" value={partner.active ? "deactivate" : "activate"} />
        <button type="submit" className={buttonClass}>
          {partner.active ? "Deactivate" : "Activate again"}
        </button>
      </Form>
    </>
  );
}

import { Form } from "react-router";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { FieldError } from "../components/FormField.tsx";
import { DataTable, buttonClass, fieldClass } from "../components/TableRegion.tsx";

/**
 * The lead page's "Refer": who has the job, the visitor's ZIP, the active partners (those serving the ZIP
 * first, narrowed by service) to tick, and every offer with its answer.
 */

export interface ReferErrors {
  zip?: string;
  partners?: string;
}

interface ReferData {
  candidates: { id: string; name: string; business: string; servesZip: boolean }[];
  referrals: {
    offers: { id: string; partnerName: string; offeredAt: string; state: string; answeredIn: string | null }[];
    holder: { partnerName: string; business: string; phone: string; answeredIn: string } | null;
  };
  service: string | null;
  services: readonly string[];
  optOut: string | null;
}

export function ReferSection({
  zip,
  refer,
  errors = {},
}: {
  zip: string | null;
  refer: ReferData;
  errors?: ReferErrors;
}) {
  const { candidates, referrals, service, services, optOut } = refer;
  const holder = referrals.holder;
  return (
    <section aria-labelledby="refer-heading" className="mt-8">
      <h2 id="refer-heading" className="text-xl font-bold text-slate-900">
        Refer
      </h2>
      {holder ? (
        <p className="mt-2 rounded border border-green-800 bg-green-50 p-3 text-slate-900" role="status">
          <strong>{holder.partnerName}</strong> ({holder.business}, {holder.phone}) has the job: answered in{" "}
          {holder.answeredIn}.
        </p>
      ) : null}

      {optOut ? (
        <div className="mt-3 rounded border border-red-800 bg-red-50 p-3 text-red-900" role="note">
          <p className="font-semibold">Opted out: {optOut}.</p>
          <p className="mt-1">
            This visitor asked not to have their information sold or shared. Partners are sent the job without contact
            details, and the partner who accepts gets them: confirm before sending a referral.
          </p>
        </div>
      ) : null}

      <ConsoleForm name="zip" className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="lead-zip" className="font-semibold text-slate-900">
            ZIP
          </label>
          <input
            id="lead-zip"
            name="zip"
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            defaultValue={zip ?? ""}
            aria-invalid={errors.zip ? true : undefined}
            aria-describedby={errors.zip ? "lead-zip-hint lead-zip-error" : "lead-zip-hint"}
            className={`${fieldClass} w-32`}
          />
        </div>
        <div className="pb-1">
          <button type="submit" className={buttonClass}>
            Set ZIP
          </button>
        </div>
        <p id="lead-zip-hint" className="w-full text-sm text-slate-700">
          The visitor&apos;s ZIP code, once you know it: partners serving it are listed first.
        </p>
        <FieldError id="lead-zip-error" error={errors.zip} />
      </ConsoleForm>

      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="refer-service" className="font-semibold text-slate-900">
            Service
          </label>
          <select id="refer-service" name="service" defaultValue={service ?? ""} className={fieldClass}>
            <option value="">All services</option>
            {services.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <div className="pb-1">
          <button type="submit" className={buttonClass}>
            Show partners
          </button>
        </div>
      </Form>

      {holder ? null : candidates.length === 0 ? (
        <p className="mt-4 text-slate-800">
          {service ? `No active partner offers ${service}.` : "No active partners yet: add them under Partners."}
        </p>
      ) : (
        <ConsoleForm name="refer" className="mt-4 grid max-w-xl gap-3">
          {optOut ? (
            <label htmlFor="refer-confirm" className="flex items-center gap-2 font-semibold text-slate-900">
              <input id="refer-confirm" type="checkbox" name="confirmOptOut" value="yes" className="size-5" />I confirm
              sending this referral despite the opt-out
            </label>
          ) : null}
          <fieldset aria-describedby={errors.partners ? "refer-partners-error" : undefined}>
            <legend className="font-semibold text-slate-900">Partners</legend>
            <ul className="mt-1 grid gap-2">
              {candidates.map((partner) => (
                <li key={partner.id}>
                  <label htmlFor={`refer-${partner.id}`} className="flex items-center gap-2 text-slate-900">
                    <input
                      id={`refer-${partner.id}`}
                      type="checkbox"
                      name="partner"
                      value={partner.id}
                      aria-describedby={`refer-${partner.id}-about`}
                      className="size-5"
                    />
                    {partner.name}
                  </label>
                  <p id={`refer-${partner.id}-about`} className="ml-7 text-sm text-slate-700">
                    {partner.business}
                    {partner.servesZip ? `; serves ${zip}` : ""}
                  </p>
                </li>
              ))}
            </ul>
            <FieldError id="refer-partners-error" error={errors.partners} />
          </fieldset>
          <div>
            <button type="submit" className={buttonClass}>
              Send referral
            </button>
          </div>
        </ConsoleForm>
      )}

      {referrals.offers.length > 0 ? (
        <DataTable
          label="Referrals of this lead"
          caption="Referrals of this lead and their answers"
          headings={["Partner", "Offered", "Answer", "Answered in"]}
        >
          {referrals.offers.map((offer) => (
            <tr key={offer.id}>
              <th scope="row" className="font-normal">
                {offer.partnerName}
              </th>
              <td className="whitespace-nowrap">{offer.offeredAt}</td>
              <td>{offer.state}</td>
              <td className="whitespace-nowrap">{offer.answeredIn ?? "Not yet"}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

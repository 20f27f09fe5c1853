import { Link } from "react-router";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { buttonClass, fieldClass, linkClass } from "../components/TableRegion.tsx";

/** The partner form, to add a partner or edit one: every field labelled, errors tied to their fields. */

interface PartnerValues {
  name: string;
  business: string;
  phone: string;
  email: string;
  services: string[];
  zipCodes: string[];
  /** The partner's own fee per referral as a plain decimal; "" for the default. */
  fee: string;
  /** The partner's fee for some services, as plain decimals by service name. */
  serviceFees: Record<string, string>;
  /** "Send calls to this partner". */
  takesCalls: boolean;
  /** The partner's own fee per call as a plain decimal; "" for the default. */
  callFee: string;
  hours: string;
  /** The cap as typed; "" for none. */
  callsPerDay: string;
  priority: number;
}

type Errors = Partial<
  Record<
    | "name"
    | "business"
    | "phone"
    | "email"
    | "services"
    | "zipCodes"
    | "feeMinor"
    | "serviceFees"
    | "callFeeMinor"
    | "hours"
    | "callsPerDay"
    | "priority",
    string
  >
>;

export function PartnerForm({
  values,
  errors = {},
  sameEmail,
  services,
  feeHint,
  callFeeHint,
}: {
  values: PartnerValues | null;
  errors?: Errors;
  /** The active partner who already has the email typed, to open instead. */
  sameEmail?: { id: string; name: string } | undefined;
  /** Every service the site offers, one checkbox each. */
  services: readonly string[];
  /** What the fee field takes, with the currency and the default fee. */
  feeHint: string;
  /** What the fee per call takes, with the currency and the default fee per call. */
  callFeeHint: string;
}) {
  return (
    <ConsoleForm name="save" className="mt-3 grid max-w-xl gap-4">
      <TextField
        id="partner-name"
        name="name"
        required
        label="Name"
        autoComplete="off"
        maxLength={120}
        defaultValue={values?.name ?? ""}
        error={errors.name}
      />
      <TextField
        id="partner-business"
        name="business"
        required
        label="Business"
        autoComplete="off"
        maxLength={160}
        defaultValue={values?.business ?? ""}
        error={errors.business}
      />
      <TextField
        id="partner-phone"
        name="phone"
        required
        label="Phone"
        type="tel"
        autoComplete="off"
        maxLength={40}
        defaultValue={values?.phone ?? ""}
        error={errors.phone}
      />
      <TextField
        id="partner-email"
        name="email"
        required
        label="Email"
        type="email"
        autoComplete="off"
        maxLength={254}
        defaultValue={values?.email ?? ""}
        error={
          sameEmail ? (
            <>
              {errors.email}{" "}
              <Link to={`/admin/partners/${sameEmail.id}`} className={linkClass}>
                Open {sameEmail.name}
              </Link>
            </>
          ) : (
            errors.email
          )
        }
      />
      <fieldset aria-describedby={errors.services ? "partner-services-error" : undefined}>
        <legend className="font-semibold text-slate-900">Services</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {services.map((service, index) => (
            <label
              key={service}
              htmlFor={`partner-service-${index}`}
              className="flex items-center gap-2 text-slate-900"
            >
              <input
                id={`partner-service-${index}`}
                type="checkbox"
                name="services"
                value={service}
                defaultChecked={values?.services.includes(service) ?? false}
                className="size-5"
              />
              {service}
            </label>
          ))}
        </div>
        <FieldError id="partner-services-error" error={errors.services} />
      </fieldset>
      <div>
        <label htmlFor="partner-zipCodes" className="font-semibold text-slate-900">
          ZIP codes
        </label>
        <textarea
          id="partner-zipCodes"
          name="zipCodes"
          rows={3}
          maxLength={3500}
          defaultValue={values?.zipCodes.join(" ") ?? ""}
          aria-invalid={errors.zipCodes ? true : undefined}
          aria-describedby={errors.zipCodes ? "partner-zipCodes-hint partner-zipCodes-error" : "partner-zipCodes-hint"}
          className={fieldClass}
        />
        <p id="partner-zipCodes-hint" className="mt-1 text-sm text-slate-700">
          5-digit ZIP codes the partner serves, separated by spaces or commas.
        </p>
        <FieldError id="partner-zipCodes-error" error={errors.zipCodes} />
      </div>
      <TextField
        id="partner-fee"
        name="fee"
        label="Fee per referral"
        inputMode="decimal"
        autoComplete="off"
        maxLength={20}
        hint={feeHint}
        defaultValue={values?.fee ?? ""}
        error={errors.feeMinor}
      />
      <details open={Boolean(errors.serviceFees) || Object.keys(values?.serviceFees ?? {}).length > 0}>
        <summary className="cursor-pointer py-2 font-semibold text-slate-900">Fees by service (optional)</summary>
        <fieldset
          aria-describedby={
            errors.serviceFees ? "partner-service-fees-hint partner-service-fees-error" : "partner-service-fees-hint"
          }
        >
          <legend className="sr-only">Fees by service</legend>
          <p id="partner-service-fees-hint" className="text-sm text-slate-700">
            A different fee for jobs of these services; blank: the fee per referral above.
          </p>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {services.map((service, index) => (
              <TextField
                key={service}
                id={`partner-service-fee-${index}`}
                name={`serviceFee${index}`}
                label={service}
                inputMode="decimal"
                autoComplete="off"
                maxLength={20}
                defaultValue={values?.serviceFees[service] ?? ""}
                error={undefined}
              />
            ))}
          </div>
          <FieldError id="partner-service-fees-error" error={errors.serviceFees} />
        </fieldset>
      </details>
      <fieldset className="grid gap-4">
        <legend className="font-semibold text-slate-900">Calls and hours</legend>
        <label htmlFor="partner-takesCalls" className="flex items-center gap-2 text-slate-900">
          <input
            id="partner-takesCalls"
            type="checkbox"
            name="takesCalls"
            defaultChecked={values?.takesCalls ?? false}
            className="size-5"
          />
          Send calls to this partner
        </label>
        <TextField
          id="partner-callFee"
          name="callFee"
          label="Fee per call"
          inputMode="decimal"
          autoComplete="off"
          maxLength={20}
          hint={callFeeHint}
          defaultValue={values?.callFee ?? ""}
          error={errors.callFeeMinor}
        />
        <TextField
          id="partner-hours"
          name="hours"
          required
          label="Hours"
          autoComplete="off"
          maxLength={200}
          hint="When the partner takes calls and new leads, on your clock: 24/7, or like Mon-Fri 07:00-19:00, Sat 08:00-12:00 (an end before the start runs overnight)."
          defaultValue={values?.hours ?? "24/7"}
          error={errors.hours}
        />
        <TextField
          id="partner-callsPerDay"
          name="callsPerDay"
          label="Calls per day"
          inputMode="numeric"
          autoComplete="off"
          maxLength={20}
          hint="At most this many calls a day; blank: no cap."
          defaultValue={values?.callsPerDay ?? ""}
          error={errors.callsPerDay}
        />
        <div>
          <label htmlFor="partner-priority" className="font-semibold text-slate-900">
            Priority
          </label>
          <select
            id="partner-priority"
            name="priority"
            defaultValue={String(values?.priority ?? 2)}
            aria-invalid={errors.priority ? true : undefined}
            aria-describedby={
              errors.priority ? "partner-priority-hint partner-priority-error" : "partner-priority-hint"
            }
            className={fieldClass}
          >
            <option value="1">1 (first)</option>
            <option value="2">2</option>
            <option value="3">3 (last)</option>
          </select>
          <p id="partner-priority-hint" className="mt-1 text-sm text-slate-700">
            Calls and new leads go to priority 1 partners first, then 2, then 3.
          </p>
          <FieldError id="partner-priority-error" error={errors.priority} />
        </div>
      </fieldset>
      <div>
        <button type="submit" className={buttonClass}>
          Save partner
        </button>
      </div>
    </ConsoleForm>
  );
}

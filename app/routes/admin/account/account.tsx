import { ConsoleForm } from "../components/ConsoleForm.tsx";
import type { Route } from "./+types/account";
import { AlertsSection } from "../alerts/AlertsSection.tsx";
import { buttonClass, fieldClass } from "../components/TableRegion.tsx";
import { siteConfig } from "~/config/site.ts";
import { invalid, requireOperator, revealed, twoStepSetup } from "~/server/console/index.server.ts";
import { listPushSubscriptions } from "~/server/alerts/index.server.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Account" }, { name: "robots", content: "noindex" }];

/** The answer to "Turn on": the recovery codes, shown this once, or why it was not turned on. */
interface Answer {
  recoveryCodes?: string[];
  error?: string;
}

export async function loader({ context }: Route.LoaderArgs) {
  const operator = requireOperator(context, { beforeTwoStep: true });
  const required = context.services.consoleAuth.requireTwoStep;
  // Null once two-step sign-in is on (also right after "Turn on", in the same request).
  const setup = operator.twoStep ? null : await twoStepSetup(context.services.db, operator, siteConfig.companyName);
  const devices = await listPushSubscriptions(context.services.db, operator.id);
  return {
    email: operator.email,
    twoStep: !setup,
    required,
    setup,
    devices: devices.map((device) => ({
      id: device.id,
      deviceLabel: device.deviceLabel,
      since: formatTime(device.createdAt, context.operatorTimeZone),
    })),
    vapidPublicKey: context.services.vapidPublicKey,
  };
}

/**
 * "Turn on": the code shows the operator's app holds the secret shown, and the recovery codes are made, once however
 * often the form is sent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const operator = requireOperator(context, { beforeTwoStep: true });
  const form = await postedForm(request);
  return context.services.consoleForms.once(request, operator, form, async () => {
    const result = await context.services.consoleAuth.turnOnTwoStep(operator, String(form.get("code") ?? ""));
    switch (result.outcome) {
      case "on":
        return revealed<Answer>("Two-step sign-in turned on.", "/admin/account", {
          recoveryCodes: result.recoveryCodes,
        });
      case "already-on":
        return invalid<Answer>({ error: "Two-step sign-in is already on." }, 409);
      case "wrong-code":
        return invalid<Answer>({
          error: "That code is not right. Enter the code your app shows now for this account.",
        });
    }
  });
}

/** The secret in groups of four, as authenticator apps print it; they accept it with or without the spaces. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const recoveryCodes = actionData?.recoveryCodes;
  const error = actionData?.error;
  const { setup } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Account</h1>
      <p className="mt-2 text-slate-800">Signed in as {loaderData.email}.</p>
      <section aria-labelledby="two-step" className="mt-6 max-w-2xl">
        <h2 id="two-step" className="text-xl font-bold text-slate-900">
          Two-step sign-in
        </h2>
        {recoveryCodes ? (
          <>
            <p
              role="status"
              className="mt-3 rounded border border-green-800 bg-green-50 p-3 font-semibold text-green-900"
            >
              Two-step sign-in is on. From now on, sign-in asks for a code from your app after your password.
            </p>
            <h3 className="mt-4 text-lg font-bold text-slate-900">Recovery codes</h3>
            <p className="mt-2 text-slate-800">
              If you lose your phone, enter one of these instead of a code. Each works once. They are shown only now:
              print them or write them down, and keep them somewhere safe.
            </p>
            <ul aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-2 font-mono text-lg text-slate-900">
              {recoveryCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
          </>
        ) : loaderData.twoStep ? (
          <p className="mt-3 text-slate-800">
            Two-step sign-in is on: sign-in asks for a code from your authenticator app after your password. Lost your
            phone and your recovery codes? Whoever runs the server can turn it off with{" "}
            <code>npm run operator -- reset-2fa {loaderData.email}</code>.
          </p>
        ) : setup ? (
          <>
            {loaderData.required ? (
              <p className="mt-3 rounded border border-amber-700 bg-amber-50 p-3 text-slate-900">
                Turn on two-step sign-in to use the console: it is required for every operator.
              </p>
            ) : null}
            <p className="mt-3 text-slate-800">
              After your password, sign-in will ask for a 6-digit code from an authenticator app on your phone, so a
              stolen password alone cannot open the console.
            </p>
            <ol className="mt-3 list-decimal space-y-3 pl-6 text-slate-800">
              <li>
                In your authenticator app, add an account by scanning this QR code:
                <div
                  role="img"
                  aria-label="QR code for your authenticator app"
                  className="mt-2 h-48 w-48 border border-slate-300 [&>svg]:h-full [&>svg]:w-full"
                  // Drawn on the server by the uqr package from the otpauth address: no text from a visitor.
                  dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
                />
              </li>
              <li>
                Or enter this secret by hand: <code className="font-mono text-slate-900">{grouped(setup.secret)}</code>
              </li>
              <li>Enter the code the app shows, and choose "Turn on".</li>
            </ol>
            <ConsoleForm name="two-step" className="mt-4 max-w-xs space-y-3">
              {error ? (
                <p role="alert" className="rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
                  {error}
                </p>
              ) : null}
              <div>
                <label htmlFor="code" className="block font-medium text-slate-800">
                  Code
                </label>
                <input
                  id="code"
                  name="code"
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  maxLength={6}
                  required
                  className={fieldClass}
                />
              </div>
              <button type="submit" className={buttonClass}>
                Turn on
              </button>
            </ConsoleForm>
          </>
        ) : (
          <p role="alert" className="mt-3 font-semibold text-red-900">
            {error}
          </p>
        )}
      </section>
      <AlertsSection
        devices={loaderData.devices}
        vapidPublicKey={loaderData.vapidPublicKey}
        returnTo="/admin/account"
      />
    </>
  );
}

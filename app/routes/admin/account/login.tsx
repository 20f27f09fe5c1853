import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/login";
import consoleStylesheet from "../console.css?url";
import { siteConfig } from "~/config/site.ts";
import { consoleNextPath } from "~/server/console/index.server.ts";
import { readSignedOutForm } from "~/server/http/index.server.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: consoleStylesheet }];

export const meta: Route.MetaFunction = () => [
  { title: `Sign in | ${siteConfig.companyName}` },
  { name: "robots", content: "noindex" },
];

/** The lockout's Retry-After, which React Router passes on only through this export. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

const WRONG = "Wrong email or password.";
const LOCKED = "Too many failed sign-ins. Please wait and try again.";
const WRONG_CODE = "That code is not right, or it has been used. Please try the next code.";
const EXPIRED = "Your sign-in took too long. Please enter your email and password again.";

type ActionData =
  { step: "password"; error: string; email: string } | { step: "code"; error?: string; pending: string; next: string };

/** An operator already signed in goes straight on. */
export function loader({ request, context }: Route.LoaderArgs) {
  const next = consoleNextPath(new URL(request.url).searchParams.get("next"));
  if (context.operator) throw redirect(next, 303);
  return { next };
}

/** Both steps post here: the email and password, then (with two-step sign-in on) the code. */
export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readSignedOutForm(request);
  if ("status" in posted) {
    return data<ActionData>({ step: "password", error: posted.error, email: "" }, { status: posted.status });
  }
  const form = new Map(Object.entries(posted.fields));
  const next = consoleNextPath(form.get("next"));
  const auth = context.services.consoleAuth;
  if (form.has("pending")) {
    const result = await auth.verifyCode({ pending: form.get("pending"), code: form.get("code") }, context.clientIp);
    switch (result.outcome) {
      case "signed-in":
        throw redirect(next, { status: 303, headers: { "Set-Cookie": result.setCookie } });
      case "expired":
        return data<ActionData>({ step: "password", error: EXPIRED, email: "" }, { status: 401 });
      case "locked":
        return data<ActionData>(
          { step: "code", error: LOCKED, pending: result.pending, next },
          { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
        );
      case "wrong-code":
        return data<ActionData>({ step: "code", error: WRONG_CODE, pending: result.pending, next }, { status: 401 });
    }
  }
  const email = String(form.get("email") ?? "").slice(0, 254);
  const result = await auth.signIn({ email: form.get("email"), password: form.get("password") }, context.clientIp);
  switch (result.outcome) {
    case "signed-in":
      throw redirect(next, { status: 303, headers: { "Set-Cookie": result.setCookie } });
    case "code-needed":
      return data<ActionData>({ step: "code", pending: result.pending, next });
    case "locked":
      return data<ActionData>(
        { step: "password", error: LOCKED, email },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "wrong":
      return data<ActionData>({ step: "password", error: WRONG, email }, { status: 401 });
  }
}

const fieldClass = "mt-1 block w-full rounded border border-slate-400 px-3 py-2 text-base";
const buttonClass = "w-full rounded bg-blue-800 px-4 py-2 font-semibold text-white hover:bg-blue-900";

function ErrorMessage({ text }: { text: string | undefined }) {
  return text ? (
    <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      {text}
    </p>
  ) : null;
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto max-w-sm px-4 py-16">
      <p className="text-sm font-semibold text-slate-600">{siteConfig.companyName} console</p>
      <h1 className="mt-1 text-2xl font-bold text-slate-900">Sign in</h1>
      {actionData?.step === "code" ? (
        <Form method="post" className="mt-6 space-y-4" noValidate>
          <input type="hidden" name="next" value={actionData.next} />
          <input type="hidden" name="pending" value={actionData.pending} />
          <ErrorMessage text={actionData.error} />
          <div>
            <label htmlFor="code" className="block text-sm font-medium text-slate-800">
              Code
            </label>
            <p id="code-hint" className="mt-1 text-sm text-slate-700">
              The 6-digit code from your authenticator app, or one of your recovery codes.
            </p>
            <input
              id="code"
              name="code"
              type="text"
              inputMode="text"
              autoComplete="one-time-code"
              aria-describedby="code-hint"
              required
              maxLength={64}
              className={fieldClass}
            />
          </div>
          <button type="submit" className={buttonClass}>
            Verify
          </button>
        </Form>
      ) : (
        <Form method="post" className="mt-6 space-y-4" noValidate>
          <input type="hidden" name="next" value={loaderData.next} />
          <ErrorMessage text={actionData?.error} />
          <div>
            <label htmlFor="email" className="block text-sm font-medium text-slate-800">
              Email
            </label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              maxLength={254}
              defaultValue={actionData?.email}
              className={fieldClass}
            />
          </div>
          <div>
            <label htmlFor="password" className="block text-sm font-medium text-slate-800">
              Password
            </label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={256}
              className={fieldClass}
            />
          </div>
          <button type="submit" className={buttonClass}>
            Sign in
          </button>
        </Form>
      )}
    </main>
  );
}

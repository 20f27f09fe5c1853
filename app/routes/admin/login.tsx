import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/login";
import consoleStylesheet from "./console.css?url";
import { siteConfig } from "~/config/site.ts";
import { readSignedOutForm } from "~/server/console/console-form.server.ts";
import { consoleNextPath } from "~/server/console/next-path.server.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: consoleStylesheet }];

export const meta: Route.MetaFunction = () => [
  { title: `Sign in | ${siteConfig.companyName}` },
  { name: "robots", content: "noindex" },
];

/** The lockout's Retry-After, which React Router passes on only through this export. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

const WRONG = "Wrong email or password.";
const LOCKED = "Too many failed sign-ins. Please wait and try again.";

/** An operator already signed in goes straight on. */
export function loader({ request, context }: Route.LoaderArgs) {
  const next = consoleNextPath(new URL(request.url).searchParams.get("next"));
  if (context.operator) throw redirect(next, 303);
  return { next };
}

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readSignedOutForm(request);
  if ("status" in posted) return data({ error: posted.error, email: "" }, { status: posted.status });
  const form = new Map(Object.entries(posted.fields));
  const next = consoleNextPath(form.get("next"));
  const result = await context.services.consoleAuth.signIn(
    { email: form.get("email"), password: form.get("password") },
    context.clientIp,
  );
  switch (result.outcome) {
    case "signed-in":
      throw redirect(next, { status: 303, headers: { "Set-Cookie": result.setCookie } });
    case "locked":
      return data(
        { error: LOCKED, email: String(form.get("email") ?? "").slice(0, 254) },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "wrong":
      return data({ error: WRONG, email: String(form.get("email") ?? "").slice(0, 254) }, { status: 401 });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto max-w-sm px-4 py-16">
      <p className="text-sm font-semibold text-slate-600">{siteConfig.companyName} console</p>
      <h1 className="mt-1 text-2xl font-bold text-slate-900">Sign in</h1>
      <Form method="post" className="mt-6 space-y-4" noValidate>
        <input type="hidden" name="next" value={loaderData.next} />
        {actionData?.error ? (
          <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800">
            {actionData.error}
          </p>
        ) : null}
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
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2 text-base"
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
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2 text-base"
          />
        </div>
        <button
          type="submit"
          className="w-full rounded bg-blue-800 px-4 py-2 font-semibold text-white hover:bg-blue-900"
        >
          Sign in
        </button>
      </Form>
    </main>
  );
}

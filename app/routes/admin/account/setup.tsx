import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/setup";
import consoleStylesheet from "../console.css?url";
import { siteConfig } from "~/config/site.ts";
import { createFirstOperator, hasOperator } from "~/server/console/index.server.ts";
import { readSignedOutForm } from "~/server/http/index.server.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: consoleStylesheet }];

export const meta: Route.MetaFunction = () => [
  { title: `Create the first operator | ${siteConfig.companyName}` },
  { name: "robots", content: "noindex" },
];

/** The page exists only while no operator does: after that it is gone for good. */
export async function loader({ context }: Route.LoaderArgs) {
  if (await hasOperator(context.services.db)) throw data("Not Found", { status: 404 });
  return null;
}

type ActionData = { errors: Partial<Record<"email" | "password" | "code", string>>; email: string };

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readSignedOutForm(request);
  if ("status" in posted) {
    return data<ActionData>({ errors: { code: posted.error }, email: "" }, { status: posted.status });
  }
  const { email, password, code } = posted.fields;
  const outcome = await createFirstOperator(context.services.db, { email, password, code });
  const typed = typeof email === "string" ? email.slice(0, 254) : "";
  switch (outcome.kind) {
    case "created":
      throw redirect("/admin/login", 303);
    case "exists":
      throw data("Not Found", { status: 404 });
    case "wrong-code":
      return data<ActionData>(
        {
          errors: {
            code: "That set-up code is not right, or has expired: use the one the server printed last in its log.",
          },
          email: typed,
        },
        { status: 401 },
      );
    case "invalid":
      return data<ActionData>({ errors: outcome.errors, email: typed }, { status: 400 });
  }
}

const fieldClass = "mt-1 block w-full rounded border border-slate-400 px-3 py-2 text-base";

function Field(props: {
  id: "email" | "password" | "code";
  label: string;
  type: string;
  autoComplete: string;
  hint?: string;
  error?: string;
  defaultValue?: string;
}) {
  const describedBy = [props.hint ? `${props.id}-hint` : "", props.error ? `${props.id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div>
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.hint ? (
        <p id={`${props.id}-hint`} className="mt-1 text-sm text-slate-700">
          {props.hint}
        </p>
      ) : null}
      <input
        id={props.id}
        name={props.id}
        type={props.type}
        autoComplete={props.autoComplete}
        required
        maxLength={props.id === "password" ? 256 : 254}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={fieldClass}
      />
      {props.error ? (
        <p id={`${props.id}-error`} className="mt-1 text-sm font-semibold text-red-800">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** First run: the operator who installed the site makes the first console account. */
export default function Setup({ actionData }: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  return (
    <main id="main" className="mx-auto max-w-sm px-4 py-16">
      <p className="text-sm font-semibold text-slate-600">{siteConfig.companyName} console</p>
      <h1 className="mt-1 text-2xl font-bold text-slate-900">Create the first operator</h1>
      <p className="mt-3 text-slate-800">
        No one can sign in yet. The server printed a one-time set-up code in its log when it started: enter it with your
        email and a password to make the first account.
      </p>
      <Form method="post" className="mt-6 space-y-4" noValidate>
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="username"
          error={errors.email}
          defaultValue={actionData?.email}
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters."
          error={errors.password}
        />
        <Field id="code" label="Set-up code" type="text" autoComplete="off" error={errors.code} />
        <button
          type="submit"
          className="w-full rounded bg-blue-800 px-4 py-2 font-semibold text-white hover:bg-blue-900"
        >
          Create the first operator
        </button>
      </Form>
    </main>
  );
}

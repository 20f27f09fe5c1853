import type { Route } from "./+types/do-not-sell";
import { OptOutForm } from "~/components/forms/OptOutForm.tsx";
import { doNotSellPage, doNotSellSeo } from "~/content/lead-forms.ts";
import { breadcrumbJsonLd, pageMeta } from "~/lib/seo.ts";
import { leadFormAction } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(doNotSellSeo),
  breadcrumbJsonLd(doNotSellPage.title, doNotSellSeo.path),
];

/** The form's own POST, used without JavaScript. */
export const action = (args: Route.ActionArgs) => leadFormAction(args, "opt-out");

export default function DoNotSell({ actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12 md:py-16">
      <h1 className="text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">{doNotSellPage.title}</h1>
      <div className="mt-6 space-y-4 text-slate-800">
        {doNotSellPage.intro.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
      <div className="mt-10 rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
        <h2 className="text-2xl font-bold text-brand-900">{doNotSellPage.formTitle}</h2>
        <div className="mt-6">
          <OptOutForm serverResult={actionData} />
        </div>
      </div>
    </section>
  );
}

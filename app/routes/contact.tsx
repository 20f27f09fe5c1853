import type { Route } from "./+types/contact";
import { ContactForm } from "~/components/forms/ContactForm.tsx";
import { PhoneLink } from "~/components/PhoneLink.tsx";
import { contactPage, contactSeo } from "~/content/lead-forms.ts";
import { breadcrumbJsonLd, pageMeta } from "~/lib/seo.ts";
import { leadFormAction } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [...pageMeta(contactSeo), breadcrumbJsonLd("Contact", contactSeo.path)];

/** The form's own POST, used without JavaScript. */
export const action = (args: Route.ActionArgs) => leadFormAction(args, "contact");

export default function Contact({ actionData }: Route.ComponentProps) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto max-w-3xl px-4 py-12 md:py-16">
        <header className="text-center">
          <h1 className="text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">{contactPage.title}</h1>
          <p className="mt-4 text-lg text-slate-700">{contactPage.subtitle}</p>
          <p className="mt-4 text-base text-slate-800">
            {contactPage.callPrompt}{" "}
            <PhoneLink placement="contact_hero" className="font-bold text-brand-700 underline underline-offset-2" />
          </p>
        </header>
        <div className="mt-10 rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
          <h2 className="text-2xl font-bold text-brand-900">{contactPage.cardTitle}</h2>
          <p className="mt-2 text-slate-700">{contactPage.cardIntro}</p>
          <div className="mt-6">
            <ContactForm serverResult={actionData} />
          </div>
        </div>
        <p className="mt-8 text-center text-sm text-slate-700">
          {contactPage.optOut.before}
          <a href="/do-not-sell" className="font-semibold text-brand-700 underline underline-offset-2">
            {contactPage.optOut.link}
          </a>
        </p>
      </div>
    </section>
  );
}

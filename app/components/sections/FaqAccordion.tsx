import { useId } from "react";
import { Icon } from "~/components/Icon.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/**
 * Questions that open one at a time; the open one closes again on a second click. Native
 * `<details>` sharing one `name` do both in the browser itself, so the accordion works without
 * scripts and before hydration. Closed answers stay in the HTML, so search engines and the
 * FAQPage data see them. The first question starts open.
 */
export function FaqAccordion({ heading, faqs, cta, tone }: SectionComponentProps<"faq">) {
  const groupName = useId();
  return (
    <Section heading={heading} tone={tone}>
      <div className="mx-auto mt-10 max-w-3xl divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {faqs.map((faq, index) => (
          <details key={faq.question} name={groupName} open={index === 0} className="group">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-6 py-5 text-left hover:bg-brand-50 [&::-webkit-details-marker]:hidden">
              <h3 className="text-lg font-semibold text-brand-900">{faq.question}</h3>
              <Icon
                name="chevron-down"
                className="size-5 shrink-0 text-brand-900 transition-transform group-open:rotate-180 motion-reduce:transition-none"
              />
            </summary>
            <div className="px-6 pb-6">
              <p className="text-slate-700">{faq.answer}</p>
            </div>
          </details>
        ))}
      </div>
      <div className="mt-10 text-center">
        <CallButton placement={cta.placement} size="lg">
          {cta.label}
        </CallButton>
      </div>
    </Section>
  );
}

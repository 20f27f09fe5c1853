import { useId, useState } from "react";
import { Icon } from "~/components/Icon.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";
import { toggleOpenItem } from "~/lib/accordion.ts";

/**
 * Questions that open one at a time; the open one closes again on a second click.
 * Closed answers stay in the HTML, only `hidden`, so search engines and the FAQPage data see them.
 */
export function FaqAccordion({ heading, faqs, cta, tone }: SectionComponentProps<"faq">) {
  const [openIndex, setOpenIndex] = useState<number | null>(0);
  const idPrefix = useId();
  return (
    <Section heading={heading} tone={tone}>
      <div className="mx-auto mt-10 max-w-3xl divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {faqs.map((faq, index) => {
          const open = index === openIndex;
          const questionId = `${idPrefix}question-${index}`;
          const answerId = `${idPrefix}answer-${index}`;
          return (
            <div key={faq.question}>
              <h3>
                <button
                  type="button"
                  id={questionId}
                  aria-expanded={open}
                  aria-controls={answerId}
                  className="flex w-full items-center justify-between gap-4 px-6 py-5 text-left text-lg font-semibold text-brand-900 hover:bg-brand-50"
                  onClick={() => setOpenIndex((current) => toggleOpenItem(current, index))}
                >
                  {faq.question}
                  <Icon
                    name="chevron-down"
                    className={`size-5 shrink-0 transition-transform motion-reduce:transition-none ${open ? "rotate-180" : ""}`}
                  />
                </button>
              </h3>
              <div id={answerId} role="region" aria-labelledby={questionId} hidden={!open} className="px-6 pb-6">
                <p className="text-slate-700">{faq.answer}</p>
              </div>
            </div>
          );
        })}
      </div>
      <div className="mt-10 text-center">
        <CallButton placement={cta.placement} size="lg">
          {cta.label}
        </CallButton>
      </div>
    </Section>
  );
}

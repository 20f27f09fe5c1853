import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/** A few paragraphs of prose under a heading, such as the company's story. */
export function StoryText({ heading, paragraphs, tone }: SectionComponentProps<"story">) {
  return (
    <Section heading={heading} tone={tone}>
      <div className="mx-auto mt-8 max-w-3xl space-y-4 text-lg text-slate-700">
        {paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </Section>
  );
}

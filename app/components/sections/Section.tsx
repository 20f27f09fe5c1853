import { useId, type ReactNode } from "react";
import { SectionHeader } from "~/components/sections/SectionHeader.tsx";
import type { LandingSection, SectionContent, SectionHeading } from "~/content/types.ts";

const tones = { plain: "bg-white", muted: "bg-slate-50" } as const;

/** The band's background; consecutive sections alternate so each reads as its own block. */
export type SectionTone = keyof typeof tones;

/** The props of a section component: its content, and the band's tone. */
export type SectionComponentProps<K extends LandingSection["kind"]> = SectionContent<K> & { tone?: SectionTone };

interface SectionProps {
  heading: SectionHeading;
  tone?: SectionTone;
  /** The section's anchor, such as `services`. */
  id?: string;
  children: ReactNode;
}

/** The frame content sections share: a band named by its centred heading, then the section's own body. */
export function Section({ heading, tone = "plain", id, children }: SectionProps) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className={`scroll-mt-24 py-16 ${tones[tone]}`}>
      <div className="mx-auto max-w-6xl px-4">
        <SectionHeader heading={heading} id={headingId} />
        {children}
      </div>
    </section>
  );
}

import type { JSX } from "react";
import { LocationLine } from "~/components/LocationLine.tsx";
import { BenefitGrid } from "~/components/sections/BenefitGrid.tsx";
import { BrandList } from "~/components/sections/BrandList.tsx";
import { CallSection } from "~/components/sections/CallSection.tsx";
import { EmergencyNotice } from "~/components/sections/EmergencyNotice.tsx";
import { FaqAccordion } from "~/components/sections/FaqAccordion.tsx";
import { Hero } from "~/components/sections/Hero.tsx";
import { ProblemList } from "~/components/sections/ProblemList.tsx";
import { ProcessSteps } from "~/components/sections/ProcessSteps.tsx";
import { ReviewGrid } from "~/components/sections/ReviewGrid.tsx";
import type { SectionTone } from "~/components/sections/Section.tsx";
import { ServiceGrid } from "~/components/sections/ServiceGrid.tsx";
import { StatGrid } from "~/components/sections/StatGrid.tsx";
import { StoryText } from "~/components/sections/StoryText.tsx";
import { SystemTypeGrid } from "~/components/sections/SystemTypeGrid.tsx";
import type { LandingSection } from "~/content/types.ts";

/** Renders a landing page's sections in order, each with the section component its `kind` names. */
export function LandingSections({ sections }: { sections: LandingSection[] }) {
  return sections.map((section, index) => (
    // The hero is first, so odd positions start plain under it and the bands alternate from there.
    <LandingSectionView key={`${section.kind}-${index}`} section={section} tone={index % 2 ? "plain" : "muted"} />
  ));
}

function LandingSectionView({ section, tone }: { section: LandingSection; tone: SectionTone }): JSX.Element {
  switch (section.kind) {
    case "hero":
      return (
        <Hero
          content={section.hero}
          aside={
            section.showLocation ? (
              <LocationLine className="mb-3 rounded-full bg-brand-700 px-4 py-1 text-sm text-white" />
            ) : undefined
          }
        />
      );
    case "services":
      return <ServiceGrid {...section} tone={tone} />;
    case "benefits":
      return <BenefitGrid {...section} tone={tone} />;
    case "problems":
      return <ProblemList {...section} tone={tone} />;
    case "system-types":
      return <SystemTypeGrid {...section} tone={tone} />;
    case "faq":
      return <FaqAccordion {...section} tone={tone} />;
    case "reviews":
      return <ReviewGrid {...section} tone={tone} />;
    case "process":
      return <ProcessSteps {...section} tone={tone} />;
    case "brands":
      return <BrandList {...section} tone={tone} />;
    case "stats":
      return <StatGrid {...section} tone={tone} />;
    case "story":
      return <StoryText {...section} tone={tone} />;
    case "emergency-notice":
      return <EmergencyNotice {...section} />;
    case "call":
      return <CallSection {...section} />;
  }
}

import type { Route } from "./+types/plumbers";
import { LocationLine } from "~/components/LocationLine.tsx";
import { CallSection } from "~/components/sections/CallSection.tsx";
import { Hero } from "~/components/sections/Hero.tsx";
import { PlumberList } from "~/components/sections/PlumberList.tsx";
import {
  emergencyCta,
  emergencyHeading,
  plumberContactCta,
  plumberProfiles,
  plumbersHeading,
  plumbersHero,
  plumbersNetworkNote,
  plumbersSeo,
} from "~/content/plumbers.ts";
import { pageMeta } from "~/lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta(plumbersSeo);

export default function Plumbers() {
  return (
    <>
      <Hero content={plumbersHero} aside={<LocationLine className="mb-3 text-brand-700" />} />
      <PlumberList
        heading={plumbersHeading}
        plumbers={plumberProfiles}
        cta={plumberContactCta}
        note={plumbersNetworkNote}
      />
      <CallSection
        id="emergency"
        heading={emergencyHeading}
        placement={emergencyCta.placement}
        callLabel={emergencyCta.label}
      />
    </>
  );
}

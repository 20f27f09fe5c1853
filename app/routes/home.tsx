import type { Route } from "./+types/home";
import { BenefitGrid } from "~/components/sections/BenefitGrid.tsx";
import { CallSection } from "~/components/sections/CallSection.tsx";
import { Hero } from "~/components/sections/Hero.tsx";
import { ServiceGrid } from "~/components/sections/ServiceGrid.tsx";
import { TestimonialCarousel } from "~/components/sections/TestimonialCarousel.tsx";
import {
  homeContactHeading,
  homeHero,
  homeSeo,
  homeServices,
  homeServicesCta,
  homeServicesHeading,
  homeTestimonials,
  whyChooseUs,
  whyChooseUsHeading,
} from "~/content/home.ts";
import { pageMeta, plumberJsonLd } from "~/lib/seo.ts";

export const meta: Route.MetaFunction = () => [...pageMeta(homeSeo), plumberJsonLd()];

export default function Home() {
  return (
    <>
      <Hero content={homeHero} />
      <ServiceGrid id="services" heading={homeServicesHeading} cards={homeServices} cta={homeServicesCta} />
      <BenefitGrid heading={whyChooseUsHeading} cards={whyChooseUs} />
      <CallSection id="contact" heading={homeContactHeading} placement="contact_hero">
        <TestimonialCarousel testimonials={homeTestimonials} label="What our customers say" />
      </CallSection>
    </>
  );
}

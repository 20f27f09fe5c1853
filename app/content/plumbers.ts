import type { CallToAction, HeroContent, PlumberProfile, SectionHeading } from "./types.ts";
import type { PageSeo } from "~/lib/seo.ts";

export const plumbersSeo: PageSeo = {
  title: "Local Professional Plumbers Near You | Licensed, Insured, 24/7",
  description:
    "Find licensed and insured local plumbers near you, rated 4.9/5. Emergency repairs, water heaters, drains, leaks and sewer lines, 24 hours a day. Call for a free estimate.",
  path: "/plumbers",
  keywords:
    "local plumbers, plumber near me, emergency plumber, licensed plumber, 24/7 plumber, water heater repair, drain cleaning, leak detection, sewer line repair",
};

export const plumbersHero: HeroContent = {
  title: "Local Professional Plumbers",
  lead: "One call connects you with a licensed, insured plumber who works in your area, for emergencies, repairs and installations, day or night.",
  badges: [
    { icon: "shield", label: "Licensed & Insured" },
    { icon: "clock", label: "24/7 Emergency Service" },
  ],
  cta: { label: "Call a Plumber Near You", placement: "plumber-hero" },
  footnote: "Free estimates • Upfront pricing • 100% satisfaction guarantee",
  illustration: { caption: "4.9/5 Average Rating" },
};

export const plumbersHeading: SectionHeading = {
  title: "Plumbers in Our Network",
  intro: "Independent, licensed professionals with strong reviews and the specialties homeowners call about most.",
};

export const plumberProfiles: PlumberProfile[] = [
  {
    id: 1,
    name: "Carlos Medina",
    image: "blue",
    rating: 4.9,
    description:
      "Answers the late-night calls: burst pipes, failed water heaters and drains that back up at the worst time.",
    specialties: ["Emergency Repairs", "Water Heaters", "Drain Cleaning"],
  },
  {
    id: 2,
    name: "Rachel Kim",
    image: "green",
    rating: 4.8,
    description: "Careful, tidy work on bathroom remodels, new fixtures and repairs to old or damaged pipework.",
    specialties: ["Bathroom Renovations", "Fixture Installation", "Pipe Repair"],
  },
  {
    id: 3,
    name: "Daniel Brooks",
    image: "amber",
    rating: 4.9,
    description: "Sets up smart leak sensors and shut-off valves, and plans new pipe runs for homes and businesses.",
    specialties: ["Smart Systems", "Commercial Work", "Pipe Installation"],
  },
  {
    id: 4,
    name: "Tony Russo",
    image: "slate",
    rating: 4.7,
    description:
      "Tracks down hidden leaks with camera and acoustic tools, and repairs sewer lines with as little digging as possible.",
    specialties: ["Emergency Service", "Leak Detection", "Sewer Lines"],
  },
];

export const plumberContactCta: CallToAction = { label: "Contact Now", placement: "plumber-list" };

/** Every card calls the same number, so the page says plainly who answers. */
export const plumbersNetworkNote =
  "Profiles show the kind of independent plumbers in our referral network. The plumber who helps you depends on your area and who is available when you call.";

export const emergencyHeading: SectionHeading = {
  title: "Need Emergency Service?",
  intro: "Burst pipe, overflowing toilet or no hot water? A local plumber is ready right now, day or night.",
};

export const emergencyCta: CallToAction = { label: "Call Now", placement: "plumber-list-bottom" };

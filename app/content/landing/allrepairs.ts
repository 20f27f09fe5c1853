import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const allRepairs: LandingPage = {
  seo: {
    title: "Get an Expert Plumber Today | All Plumbing Repairs, 24/7",
    description:
      "Leaks, clogs, water heaters, toilets and pipes: call now for a licensed local plumber today. 4.9/5 from 500+ reviews, 30+ years of experience, free estimates.",
    path: "/allrepairs",
  },
  breadcrumb: "All Plumbing Repairs",
  sections: [
    serviceHero({
      title: "Get Expert Plumber Today",
      lead: "Leaking pipe, blocked drain, no hot water or a toilet that won't stop running: whatever broke, one call gets a licensed local plumber on the way today, with the price agreed before work begins.",
      cta: { label: "Call for Same-Day Repair", placement: "hero" },
      caption: "30+ Years Experience",
    }),
    {
      kind: "services",
      heading: {
        title: "Repairs We Handle Every Day",
        intro: "No job too big or too small. If water runs through it, our pros can fix it.",
      },
      cards: [
        {
          icon: "drop",
          title: "Leak Repair",
          description:
            "Dripping pipes, burst lines and hidden leaks found and fixed before they damage floors and walls.",
        },
        {
          icon: "wrench",
          title: "Drain & Sewer Clearing",
          description: "Slow sinks, backed-up showers and main line clogs cleared with snakes and hydro jetting.",
        },
        {
          icon: "flame",
          title: "Water Heater Repair",
          description: "No hot water, strange noises or a leaking tank: gas, electric and tankless units repaired.",
        },
        {
          icon: "home",
          title: "Toilet Repair",
          description: "Running, clogged, rocking or leaking toilets fixed, and new toilets installed the same day.",
        },
        {
          icon: "settings",
          title: "Faucet & Fixture Repair",
          description: "Drips, low flow and worn valves in kitchens and bathrooms repaired or replaced.",
        },
        {
          icon: "zap",
          title: "Pipe Repair & Repiping",
          description: "Corroded, frozen or cracked pipes repaired, and old lines replaced with modern materials.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "process",
      heading: { title: "How It Works", intro: "From your call to a working fix, without the runaround." },
      steps: [
        {
          title: "Call Any Time",
          description: "Tell us what's wrong. A real person answers 24/7 and finds a licensed plumber near you.",
        },
        {
          title: "Get an Upfront Price",
          description: "Your plumber checks the problem and gives you a clear price before any work starts.",
        },
        {
          title: "Problem Fixed",
          description: "The repair is done the same day in most cases, and the area is left clean.",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

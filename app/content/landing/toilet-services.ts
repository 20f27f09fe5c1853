import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const toiletServices: LandingPage = {
  seo: {
    title: "Toilet Repair, Unclogging & Installation | From $55",
    description:
      "Clogged, running or leaking toilet? Licensed plumbers fix it today, 24/7. Clogs from $75, repairs and parts from $65, installation from $150, maintenance from $55.",
    path: "/toilet-services",
  },
  breadcrumb: "Toilet Services",
  sections: [
    serviceHero({
      title: "Toilet Repair & Installation, Done Today",
      lead: "An overflowing bowl, a toilet that runs all night or a leak around the base can't wait. Call now and a licensed plumber will unclog, repair or replace it, with the price agreed before work begins.",
      cta: { label: "Call a Toilet Pro Now", placement: "hero" },
      caption: "Same-Day Toilet Repair",
    }),
    {
      kind: "services",
      heading: {
        title: "Toilet Services & Starting Prices",
        intro: "Clear starting prices, so you know what to expect before the plumber arrives.",
      },
      cards: [
        {
          icon: "drop",
          title: "Clogged Toilet",
          description:
            "Stubborn blockages cleared with the right auger, without scratching the bowl or flooding the floor.",
          price: "Starting at $75",
        },
        {
          icon: "home",
          title: "Toilet Installation",
          description: "A new toilet set level on a fresh wax ring, connected, sealed and tested for leaks.",
          price: "Starting at $150",
        },
        {
          icon: "wrench",
          title: "Toilet Repair & Parts",
          description:
            "Flappers, fill valves, handles and flush valves replaced so your toilet flushes and stops right.",
          price: "Starting at $65",
        },
        {
          icon: "settings",
          title: "Toilet Replacement",
          description: "Old or cracked toilets removed and hauled away, and a water-saving model installed.",
          price: "Starting at $200",
        },
        {
          icon: "check",
          title: "Toilet Maintenance",
          description: "A check of seals, bolts, valves and supply lines that catches small leaks before they spread.",
          price: "Starting at $55",
        },
        {
          icon: "zap",
          title: "Emergency Toilet Service",
          description:
            "An overflowing toilet or a leak around the base at midnight: a plumber comes out any hour to stop it.",
          price: "Emergency Rate",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: {
        title: "Common Toilet Problems We Fix",
        intro: "Recognise one of these? It's usually a quick repair.",
      },
      problems: [
        {
          title: "Runs Constantly",
          description: "A worn flapper or fill valve can waste hundreds of gallons a day and push up your water bill.",
        },
        {
          title: "Weak or Incomplete Flush",
          description: "Partial clogs, a low water level or blocked rim jets leave waste behind after every flush.",
        },
        {
          title: "Water Around the Base",
          description: "A failed wax ring lets water seep under the floor, where it rots the subfloor if left alone.",
        },
        {
          title: "Clogs Again and Again",
          description: "Repeated clogs can point to a blockage deeper in the drain line that a plunger can't reach.",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const faucetServices: LandingPage = {
  seo: {
    title: "Sink, Faucet & Garbage Disposal Repair | Same-Day Service",
    description:
      "Dripping faucet, leaking sink or jammed garbage disposal? Licensed local plumbers repair and install faucets, sinks and disposals, 24/7 with free estimates.",
    path: "/faucet-services",
  },
  breadcrumb: "Sink, Faucet & Disposal Services",
  sections: [
    serviceHero({
      title: "Sink, Faucet & Garbage Disposal Repair",
      lead: "A faucet that won't stop dripping, a puddle under the sink or a disposal that only hums: local plumbers fix it fast, or install a new one that fits your kitchen or bathroom.",
      cta: { label: "Call a Faucet Pro", placement: "hero" },
      caption: "Same-Day Fixture Repair",
    }),
    {
      kind: "services",
      heading: { title: "Sink, Faucet & Disposal Services" },
      cards: [
        {
          icon: "drop",
          title: "Faucet Repair",
          description: "Drips, leaks and stiff handles fixed with new cartridges, washers, O-rings and seats.",
        },
        {
          icon: "settings",
          title: "Faucet Installation",
          description: "Kitchen, bathroom and outdoor faucets installed leak-free, including touchless models.",
        },
        {
          icon: "home",
          title: "Sink Repair & Installation",
          description: "Cracked or leaking sinks replaced, and new sinks set, sealed and connected.",
        },
        {
          icon: "wrench",
          title: "Garbage Disposal Repair",
          description: "Jammed, humming or leaking disposals freed, resealed or rewired.",
        },
        {
          icon: "zap",
          title: "Garbage Disposal Installation",
          description: "The right size disposal for your household, installed and tested with the dishwasher drain.",
        },
        {
          icon: "shield",
          title: "Shut-Off Valves & Supply Lines",
          description: "Seized valves and bulging hoses under the sink replaced before they burst.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: {
        title: "Common Faucet Problems",
        intro: "Small drips add up: a leaky faucet can waste thousands of gallons a year.",
      },
      problems: [
        {
          title: "Dripping Faucet",
          description: "A worn washer, cartridge or valve seat lets water through even when it's off.",
        },
        {
          title: "Low Water Flow",
          description: "Mineral buildup in the aerator or cartridge, or a partly closed supply valve.",
        },
        {
          title: "Leaking Under the Sink",
          description: "Loose connections, a failed supply hose or a cracked drain trap.",
        },
        {
          title: "Leak at the Handle or Spout",
          description: "Worn O-rings and seals let water escape around the base of the faucet.",
        },
        {
          title: "Loose or Stiff Handle",
          description: "Worn parts or mineral deposits make the handle wobble or hard to turn.",
        },
        {
          title: "Squealing or Banging",
          description: "Loose parts inside the faucet or water hammer in the pipes behind it.",
        },
      ],
    },
    {
      kind: "system-types",
      heading: {
        title: "Faucet Types We Repair",
        intro: "Each works differently inside, and each needs the right parts.",
      },
      types: [
        {
          title: "Compression Faucets",
          description: "Separate hot and cold handles that screw down on a rubber washer. Drips when the washer wears.",
          bestFor: "Older homes and utility sinks",
        },
        {
          title: "Ball Faucets",
          description: "A single handle over a rotating ball that mixes hot and cold. Common in kitchens.",
          bestFor: "Kitchen sinks",
        },
        {
          title: "Cartridge Faucets",
          description: "One or two handles moving a cartridge up and down. Smooth to use and easy to repair.",
          bestFor: "Bathrooms and kitchens",
        },
        {
          title: "Ceramic Disc Faucets",
          description: "Two ceramic discs slide against each other. Very durable and rarely drip.",
          bestFor: "Long-lasting, low-maintenance fixtures",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

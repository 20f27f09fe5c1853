import { serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { CallToAction, LandingPage } from "~/content/types.ts";

/** Every drain service card is a call link. */
const callAboutThis: CallToAction = { label: "Call Now", placement: "services" };

export const drainServices: LandingPage = {
  seo: {
    title: "Drain Cleaning & Unclogging From $55 | 24/7 Drain Service",
    description:
      "Clogged sink, slow shower or backed-up main line? Licensed local plumbers clear drains day or night. Drain cleaning from $55, clogged sinks from $65.",
    path: "/drain-services",
  },
  breadcrumb: "Drain Services",
  sections: [
    serviceHero({
      title: "Drain Cleaning & Unclogging, Day or Night",
      lead: "Standing water in the sink, a gurgling shower or sewage backing up? Local drain pros clear the toughest clogs fast, find out why they happened and keep them from coming back.",
      cta: { label: "Clear My Drain Now", placement: "hero_drain" },
      caption: "Same-Day Drain Service",
    }),
    {
      kind: "services",
      heading: {
        title: "Drain Services & Prices",
        intro: "Upfront starting prices, and a drain pro one call away for every service.",
      },
      cards: [
        {
          icon: "drop",
          title: "Clogged Sink",
          description: "Kitchen and bathroom sinks cleared of grease, hair and food buildup, and the trap cleaned out.",
          price: "Starting at $65",
          cta: callAboutThis,
        },
        {
          icon: "wrench",
          title: "Drain Cleaning",
          description: "Slow tubs, showers and floor drains snaked clear so water runs freely again.",
          price: "Starting at $55",
          cta: callAboutThis,
        },
        {
          icon: "search",
          title: "Main Line Cleaning",
          description: "Backups in several drains at once cleared at the main line, with a camera check where needed.",
          price: "Starting at $150",
          cta: callAboutThis,
        },
        {
          icon: "check",
          title: "Drain Preventive Maintenance",
          description: "Scheduled cleaning that keeps grease and roots from building up into an emergency.",
          price: "Starting at $55",
          cta: callAboutThis,
        },
        {
          icon: "zap",
          title: "Emergency Services",
          description: "Overflowing drains and sewage backups handled any hour, including nights and holidays.",
          price: "Emergency Rate",
          cta: callAboutThis,
        },
      ],
    },
    {
      kind: "problems",
      heading: {
        title: "Signs You Need a Drain Pro",
        intro: "Catch these early and a simple cleaning usually does it.",
      },
      problems: [
        {
          title: "Slow Draining Water",
          description: "Buildup is narrowing the pipe. Left alone, a slow drain becomes a full clog.",
        },
        {
          title: "Gurgling Sounds",
          description: "Air trapped by a blockage or a blocked vent bubbles up through sinks and toilets.",
        },
        {
          title: "Bad Odours",
          description: "Rotting food, grease or a dry trap send sewer smells back into the room.",
        },
        {
          title: "Backups in Several Drains",
          description: "Water rising in a tub when you flush points to a main line clog that needs a pro right away.",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

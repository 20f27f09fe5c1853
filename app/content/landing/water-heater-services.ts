import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const waterHeaterServices: LandingPage = {
  seo: {
    title: "Water Heater Repair & Installation | Tank and Tankless, 24/7",
    description:
      "No hot water? Local licensed plumbers repair, flush and replace gas, electric and tankless water heaters, 24/7 with same-day service and free estimates.",
    path: "/water-heater-services",
  },
  breadcrumb: "Water Heater Services",
  sections: [
    serviceHero({
      title: "Water Heater Repair & Installation",
      lead: "Cold showers, a leaking tank or rusty water? Local licensed plumbers repair and replace gas, electric and tankless water heaters, often the same day you call.",
      cta: { label: "Get My Hot Water Back", placement: "hero" },
      caption: "Tank & Tankless Experts",
      showLocation: true,
    }),
    {
      kind: "services",
      heading: {
        title: "Water Heater Services",
        intro: "Everything from a pilot light that won't stay lit to a full system upgrade.",
      },
      cards: [
        {
          icon: "wrench",
          title: "Water Heater Repair",
          description:
            "Fast diagnosis and repair for no hot water, lukewarm water or a heater that keeps shutting off.",
        },
        {
          icon: "settings",
          title: "Water Heater Installation",
          description: "New heaters sized for your household, installed to code with new valves and connections.",
        },
        {
          icon: "zap",
          title: "Tankless Water Heaters",
          description: "Endless hot water and lower bills: tankless units installed, descaled and repaired.",
        },
        {
          icon: "home",
          title: "Water Heater Replacement",
          description: "Old or leaking tanks drained, removed and hauled away, and a new heater running the same day.",
        },
        {
          icon: "drop",
          title: "Tank Flushing & Maintenance",
          description: "Sediment flushed out and the anode rod checked, so your heater lasts longer and runs quieter.",
        },
        {
          icon: "flame",
          title: "Pilot Light & Burner Repair",
          description: "Gas heaters relit safely, with thermocouples, gas valves and burners cleaned or replaced.",
        },
        {
          icon: "thermometer",
          title: "Element & Thermostat Replacement",
          description: "Electric heaters brought back to full heat with new heating elements and thermostats.",
        },
        {
          icon: "shield",
          title: "Leak & Relief Valve Repair",
          description: "Drips, pooling water and faulty pressure relief valves fixed before they become floods.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: { title: "Signs Your Water Heater Needs a Pro" },
      problems: [
        {
          title: "No Hot Water",
          description: "A failed element, thermostat, pilot or gas valve, usually repairable in a single visit.",
        },
        {
          title: "Rusty or Smelly Water",
          description:
            "Discoloured or rotten-egg smelling hot water points to a worn anode rod or corrosion inside the tank.",
        },
        {
          title: "Rumbling or Popping Noises",
          description: "Sediment has built up on the bottom of the tank. A flush often fixes it and saves energy.",
        },
        {
          title: "Water Pooling Around the Tank",
          description: "A leaking valve or fitting can be repaired; a leaking tank needs replacing before it bursts.",
        },
      ],
    },
    {
      kind: "system-types",
      heading: {
        title: "Water Heaters We Service",
        intro: "Every common type and fuel, serviced by pros who know them inside out.",
      },
      types: [
        {
          title: "Gas Tank Heaters",
          description:
            "Heat water quickly and recover fast after heavy use. Need proper venting and a safe gas supply.",
          bestFor: "Larger households with a gas line",
        },
        {
          title: "Electric Tank Heaters",
          description:
            "Simple to install and maintain, with no venting needed. Elements and thermostats are easy to replace.",
          bestFor: "Homes without gas service",
        },
        {
          title: "Tankless Heaters",
          description: "Heat water only when you open a tap, so they never run out and waste no standby energy.",
          bestFor: "Saving space and energy",
        },
        {
          title: "Heat Pump Heaters",
          description:
            "Move heat from the surrounding air into the water and use far less electricity than standard electric units.",
          bestFor: "Lowest running costs",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const waterSoftenerServices: LandingPage = {
  seo: {
    title: "Water Softener Installation, Repair & Maintenance",
    description:
      "Hard water spots, scale and dry skin? Licensed pros install, repair and maintain water softeners from twelve leading brands, with water testing and free estimates.",
    path: "/water-softener-services",
  },
  breadcrumb: "Water Softener Services",
  sections: [
    serviceHero({
      title: "Water Softener Installation & Repair",
      lead: "Crusty faucets, spotty dishes and a water heater full of scale all come from hard water. Local pros test your water, install the right softener and keep it working for years.",
      cta: { label: "Call a Water Softener Pro", placement: "hero" },
      caption: "All Major Brands Serviced",
    }),
    {
      kind: "services",
      heading: { title: "Water Softener Services" },
      cards: [
        {
          icon: "settings",
          title: "Softener Installation",
          description: "A softener sized to your water hardness and household, installed with a bypass and drain.",
        },
        {
          icon: "wrench",
          title: "Softener Repair",
          description: "Control valves, motors, timers and brine systems repaired when the water turns hard again.",
        },
        {
          icon: "check",
          title: "Maintenance & Resin Cleaning",
          description: "Brine tank cleaning, resin cleaning and settings checked to keep softening at full strength.",
        },
        {
          icon: "search",
          title: "Water Testing & Sizing",
          description: "Hardness, iron and pH tested at your tap, so the system matches your water.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: { title: "Hard Water Problems and Their Solutions" },
      problems: [
        {
          title: "Scale on Fixtures and Appliances",
          description: "White crust on faucets and shower heads, and scale inside water heaters and dishwashers.",
          solution: "A correctly sized softener removes the calcium and magnesium that cause scale.",
        },
        {
          title: "Softener Stopped Softening",
          description: "Spots and scale come back even though the system has salt.",
          solution: "Break up the salt bridge, clean the brine tank and check the resin and control valve.",
        },
        {
          title: "Low Pressure After Softening",
          description: "Water pressure dropped after the softener went in or as it got older.",
          solution: "Replace fouled resin or a clogged valve, or upsize a system that is too small for the home.",
        },
        {
          title: "Salty Tasting Water",
          description: "Tap water tastes salty, usually after the softener regenerates.",
          solution: "Clear the drain line and injector and reset the brine and regeneration settings.",
        },
      ],
    },
    {
      kind: "brands",
      heading: {
        title: "Brands We Service",
        intro: "Twelve leading brands, repaired and maintained by experienced pros.",
      },
      brands: [
        "Culligan",
        "Kinetico",
        "EcoWater",
        "RainSoft",
        "Fleck",
        "Pentair",
        "Whirlpool",
        "GE",
        "Morton",
        "Aquasana",
        "WaterBoss",
        "Hague",
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

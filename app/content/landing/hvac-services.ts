import { serviceHero } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const hvacServices: LandingPage = {
  seo: {
    title: "Expert HVAC Services & Repair | {company}",
    description:
      "AC repair, furnace repair, heating maintenance, HVAC installation, air quality testing and duct cleaning by certified HVAC experts. 24/7 emergency service.",
    path: "/hvac-services",
  },
  breadcrumb: "HVAC Services",
  chrome: { bannerText: "24/7 HVAC Services Available", companyName: "HVACFix pros" },
  sections: [
    serviceHero({
      title: "Expert HVAC Services & Repair",
      lead: "Too hot, too cold or just not right? Certified technicians repair, maintain and install air conditioning and heating systems, with 24/7 emergency service when your comfort can't wait.",
      cta: { label: "Get a Free Quote", placement: "hvac_hero" },
      caption: "Certified HVAC Experts",
      badges: [
        { icon: "clock", label: "24/7 Emergency Service" },
        { icon: "star", label: "4.9/5 Rating" },
      ],
    }),
    {
      kind: "services",
      heading: {
        title: "Complete HVAC Services",
        intro: "Heating, cooling and clean air, from one team you can call any time.",
      },
      cards: [
        {
          icon: "snowflake",
          title: "Air Conditioning Repair",
          description: "Warm air, strange noises or a unit that won't start: AC systems diagnosed and repaired fast.",
        },
        {
          icon: "thermometer",
          title: "Heating System Maintenance",
          description: "Seasonal tune-ups that keep heat pumps and boilers efficient and catch problems early.",
        },
        {
          icon: "settings",
          title: "HVAC Installation",
          description: "New air conditioners, furnaces and heat pumps, sized for your home and installed to code.",
        },
        {
          icon: "flame",
          title: "Furnace Repair",
          description:
            "No heat, short cycling or a furnace that won't light, repaired safely by certified technicians.",
        },
        {
          icon: "wind",
          title: "Air Quality Testing",
          description: "Dust, allergens, humidity and carbon monoxide measured, with clear advice on what helps.",
        },
        {
          icon: "filter",
          title: "Duct Cleaning",
          description: "Dust, debris and allergens removed from your ductwork for cleaner air and better airflow.",
        },
      ],
    },
    {
      kind: "benefits",
      heading: { title: "Why Choose {company}", intro: "Comfort you can count on, in every season." },
      cards: [
        {
          icon: "award",
          title: "Certified Technicians",
          description: "Trained, certified HVAC experts who work on every major type of system.",
        },
        {
          icon: "clock",
          title: "24/7 Emergency Service",
          description: "No heat in winter or no cooling in a heat wave? Call any hour, any day.",
        },
        {
          icon: "dollar",
          title: "Upfront Pricing",
          description: "A clear price before work begins. No hidden fees, no surprises.",
        },
        {
          icon: "shield",
          title: "Satisfaction Guarantee",
          description: "100% satisfaction guaranteed, or we come back and make it right.",
        },
      ],
    },
    {
      kind: "call",
      heading: {
        title: "Speak With an HVAC Pro Now",
        intro: "Tell us what's going on with your heating or cooling, and a certified technician will be on the way.",
      },
      placement: "contact_hero",
    },
  ],
};

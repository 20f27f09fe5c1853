import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const wellPumpServices: LandingPage = {
  seo: {
    title: "Well Pump Repair & Replacement | 24/7 No-Water Service",
    description:
      "No water or low pressure from your well? Licensed pros repair and replace submersible and jet well pumps, pressure tanks and controls. Rated 4.9/5 by 820+ customers.",
    path: "/well-pump-services",
  },
  breadcrumb: "Well Pump Services",
  sections: [
    serviceHero({
      title: "Well Pump Repair & Installation",
      lead: "No water at the tap, pressure that comes and goes, or a pump that never stops running? Well pump specialists diagnose the problem fast and get your water flowing again, day or night.",
      cta: { label: "Call a Well Pump Pro", placement: "hero" },
      caption: "Well Water Specialists",
      badges: [
        { icon: "clock", label: "24/7 Emergency Service" },
        { icon: "star", label: "4.9/5 from 820+ Customers" },
      ],
    }),
    {
      kind: "services",
      heading: { title: "Well Pump Services", intro: "Everything between your well and your faucet." },
      cards: [
        {
          icon: "wrench",
          title: "Well Pump Repair",
          description: "Motors, capacitors, impellers and wiring tested and repaired to bring the water back.",
        },
        {
          icon: "settings",
          title: "Well Pump Replacement",
          description: "Worn-out pumps pulled and replaced with a correctly sized model for your well's depth.",
        },
        {
          icon: "gauge",
          title: "Pressure Tank Service",
          description: "Waterlogged or leaking pressure tanks recharged or replaced to stop short cycling.",
        },
        {
          icon: "zap",
          title: "Pressure Switch & Controls",
          description: "Switches, control boxes and gauges replaced so the pump starts and stops when it should.",
        },
        {
          icon: "filter",
          title: "Well Water Treatment",
          description: "Filters and softeners for sediment, iron and hardness, so your well water runs clean.",
        },
        {
          icon: "clock",
          title: "Emergency No-Water Service",
          description: "No water at all? Well pump pros respond any hour, including weekends and holidays.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: { title: "Common Well Pump Problems", intro: "Call a pro if you notice any of these." },
      problems: [
        {
          title: "No Water at All",
          description: "A failed pump, tripped breaker, bad pressure switch or a dropped water level in the well.",
        },
        {
          title: "Low or Fluctuating Pressure",
          description: "A worn pump, a clogged filter or a pressure tank that has lost its air charge.",
        },
        {
          title: "Pump Short Cycling",
          description: "The pump clicks on and off every few seconds, wearing out the motor much faster.",
        },
        {
          title: "Sputtering Faucets",
          description:
            "Air in the lines points to a falling water level, a leak in the drop pipe or a failing check valve.",
        },
        {
          title: "Dirty or Sandy Water",
          description: "Sediment pulled into the pump can mean a worn well screen or a pump set too low.",
        },
        {
          title: "Pump Runs Non-Stop",
          description: "A leak, a worn pump or a faulty switch keeps it running and drives up your electric bill.",
        },
      ],
    },
    {
      kind: "system-types",
      heading: { title: "Well Pump Systems We Service" },
      types: [
        {
          title: "Submersible Pumps",
          description: "Sit deep inside the well and push water up. Quiet, efficient and long-lasting.",
          bestFor: "Deep wells",
        },
        {
          title: "Jet Pumps",
          description:
            "Mounted above ground and draw water up by suction, with deep-well models for wells up to 110 feet.",
          bestFor: "Wells up to 110 feet deep",
        },
        {
          title: "Constant Pressure Systems",
          description: "A variable-speed pump that adjusts to demand, so the shower stays steady when a tap opens.",
          bestFor: "Busy households",
        },
        {
          title: "Solar Well Pumps",
          description: "Powered by solar panels, with battery or tank storage for water after dark.",
          bestFor: "Off-grid homes and livestock",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

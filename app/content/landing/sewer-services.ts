import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const sewerServices: LandingPage = {
  seo: {
    title: "Sewer Line Inspection, Repair & Replacement | 24/7",
    description:
      "Professional sewer line services: camera inspections, cleaning, trenchless repair and replacement by licensed local plumbers. Answers to common sewer questions.",
    path: "/sewer-services",
  },
  breadcrumb: "Sewer Line Services",
  sections: [
    serviceHero({
      title: "Professional Sewer Line Services",
      lead: "Sewage backing up, drains gurgling all over the house or a soggy patch in the yard? Sewer specialists find the cause with a camera and fix it with as little digging as possible.",
      cta: { label: "Call a Sewer Specialist", placement: "hero" },
      caption: "Sewer Camera Inspections",
    }),
    {
      kind: "benefits",
      heading: {
        title: "Why Homeowners Call Us for Sewer Lines",
        intro: "Sewer work is a big job. You deserve a clear diagnosis and a fair price.",
      },
      cards: [
        {
          icon: "camera",
          title: "See the Problem First",
          description: "A video camera inspection shows exactly what's wrong, and you see the footage yourself.",
        },
        {
          icon: "home",
          title: "Less Digging",
          description:
            "Trenchless repairs fix most lines through small access points and spare your lawn and driveway.",
        },
        {
          icon: "dollar",
          title: "Upfront Pricing",
          description: "You get the price for each option before any work begins, with no surprises on the bill.",
        },
      ],
    },
    {
      kind: "services",
      heading: { title: "Sewer Line Services", intro: "From a first inspection to a brand-new line." },
      cards: [
        {
          icon: "camera",
          title: "Sewer Camera Inspection",
          description: "A waterproof camera travels the line to find roots, cracks, sags and blockages.",
        },
        {
          icon: "drop",
          title: "Sewer Cleaning & Hydro Jetting",
          description: "High-pressure water scours away grease, sludge and roots and restores full flow.",
        },
        {
          icon: "wrench",
          title: "Sewer Line Repair",
          description: "Cracked, broken or separated sections repaired to stop leaks and backups.",
        },
        {
          icon: "shield",
          title: "Trenchless Pipe Lining",
          description: "A new pipe is formed inside the old one, sealing cracks and joints without a trench.",
        },
        {
          icon: "settings",
          title: "Sewer Line Replacement",
          description: "Collapsed or badly damaged lines replaced with durable modern pipe, trenchless where possible.",
        },
        {
          icon: "zap",
          title: "Emergency Sewer Backup",
          description: "Sewage coming up through drains cleared any hour, day or night, before it damages your home.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: { title: "Typical Sewer Line Problems" },
      problems: [
        {
          title: "Tree Root Intrusion",
          description: "Roots find their way into joints and small cracks, then grow until the line is blocked.",
        },
        {
          title: "Cracked or Collapsed Pipe",
          description: "Age, ground movement and heavy traffic break old pipes and let sewage seep into the soil.",
        },
        {
          title: "Sagging Line (Belly)",
          description: "A low spot where the ground has settled collects waste and paper and keeps clogging.",
        },
        {
          title: "Grease and Debris Buildup",
          description: "Cooking grease, wipes and sludge harden inside the pipe and slowly close it off.",
        },
        {
          title: "Offset or Separated Joints",
          description: "Shifted pipe sections catch debris and leak at the joint, inviting roots in.",
        },
        {
          title: "Corroded Old Pipe",
          description: "Cast iron rusts from the inside and older fibre pipe softens and deforms with age.",
        },
      ],
    },
    {
      kind: "system-types",
      heading: { title: "Sewer Systems We Work On" },
      types: [
        {
          title: "City Sewer Connections",
          description: "The lateral line that carries your home's waste to the municipal main under the street.",
          bestFor: "Most town and city homes",
        },
        {
          title: "Septic System Lines",
          description: "The pipes between your house, the septic tank and the drain field, kept flowing and sealed.",
          bestFor: "Rural homes off the sewer grid",
        },
        {
          title: "Cast Iron & Clay Pipe",
          description: "Older lines inspected, cleaned and relined, or replaced when they are past saving.",
          bestFor: "Homes built before the 1980s",
        },
        {
          title: "PVC & ABS Pipe",
          description: "Modern plastic lines cleared, repaired and extended for additions and remodels.",
          bestFor: "Newer homes and replacements",
        },
      ],
    },
    {
      kind: "process",
      heading: { title: "Our Sewer Service Process", intro: "Two clear steps, and you decide at each one." },
      steps: [
        {
          title: "Inspect & Diagnose",
          description:
            "We run a camera through the line, show you what we find and explain your options, each with an upfront price.",
        },
        {
          title: "Repair & Restore",
          description:
            "Your plumber clears, repairs or replaces the line with the least digging possible, tests the flow and cleans up.",
        },
      ],
    },
    {
      kind: "faq",
      heading: { title: "Sewer Line FAQs", intro: "Straight answers to the questions homeowners ask us most." },
      faqs: [
        {
          question: "How do I know if my sewer line is damaged?",
          answer:
            "Warning signs include several drains backing up at once, gurgling toilets, sewage smells indoors or outside, and soggy or unusually green patches in the yard. A camera inspection confirms the cause before any repair is quoted.",
        },
        {
          question: "What happens during a sewer camera inspection?",
          answer:
            "A plumber feeds a waterproof camera on a flexible cable into the line through a cleanout. It records the inside of the pipe, showing roots, cracks, sags and blockages, and the plumber can pinpoint the depth and location of any damage.",
        },
        {
          question: "Can my sewer line be repaired without digging up the yard?",
          answer:
            "Often, yes. Trenchless pipe lining and pipe bursting fix or replace most lines through one or two small access holes. Fully collapsed pipes and severe sags may still need a traditional dig, and your plumber will tell you which applies after the inspection.",
        },
        {
          question: "How long does a sewer line repair take?",
          answer:
            "Cleaning and most spot repairs are finished in a few hours. Trenchless lining usually takes a day, and a full line replacement typically takes one to three days depending on length, depth and permits.",
        },
        {
          question: "Is sewer work guaranteed?",
          answer:
            "Yes. Repairs come with a 30-day workmanship warranty, and materials such as pipe liners often carry their own manufacturer warranty on top. Your plumber confirms the exact terms in writing before work begins.",
        },
      ],
      cta: { label: "Ask a Sewer Pro Now", placement: "faqs_section" },
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

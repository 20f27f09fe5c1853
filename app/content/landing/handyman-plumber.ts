import { freeEstimateCta, serviceHero, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const handymanPlumber: LandingPage = {
  seo: {
    title: "Handyman Plumber Services You Can Trust | Small Jobs Welcome",
    description:
      "Dripping faucets, running toilets, fixture installs and the small plumbing jobs on your list, done right by licensed handyman plumbers. Free estimates, 24/7.",
    path: "/handyman-plumber",
  },
  breadcrumb: "Handyman Plumber",
  sections: [
    serviceHero({
      title: "Handyman Plumber Services You Can Trust",
      lead: "That dripping tap, the toilet that rocks, the new faucet still in its box: a licensed handyman plumber can clear your whole list in one visit, at a fair, upfront price.",
      cta: { label: "Book a Handyman Plumber", placement: "hero" },
      caption: "Small Jobs Welcome",
    }),
    {
      kind: "services",
      heading: { title: "Handyman Plumbing Services", intro: "The everyday jobs that make a home run smoothly." },
      cards: [
        {
          icon: "drop",
          title: "Leaky Faucet Fixes",
          description: "Drips stopped with new washers, cartridges and seals, in kitchens, baths and outdoors.",
        },
        {
          icon: "home",
          title: "Toilet Repairs",
          description: "Running, wobbly and weak-flushing toilets fixed with the right parts, first time.",
        },
        {
          icon: "settings",
          title: "Fixture Installation",
          description: "Faucets, shower heads, sinks and vanities fitted, sealed and tested.",
        },
        {
          icon: "wrench",
          title: "Garbage Disposal Swaps",
          description: "Old or noisy disposals removed and new ones installed and tested.",
        },
        {
          icon: "shield",
          title: "Valve & Supply Line Repairs",
          description: "Stuck shut-off valves and worn supply hoses replaced before they fail.",
        },
        {
          icon: "hammer",
          title: "Appliance Hookups",
          description: "Dishwashers, ice makers and washing machines connected with new hoses and valves.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: { title: "Common Issues We Fix", intro: "Small problems, fixed before they turn into big ones." },
      problems: [
        { title: "Dripping Faucets", description: "A steady drip wastes water and money and stains the sink." },
        { title: "Running Toilets", description: "A worn flapper or fill valve can waste gallons every hour." },
        { title: "Slow Drains", description: "Hair and soap build up until the sink or tub barely drains." },
        {
          title: "Wobbly Toilet",
          description: "Loose bolts or a failing wax ring that can let water under the floor.",
        },
        { title: "Low Shower Pressure", description: "Mineral-clogged shower heads and aerators cleaned or replaced." },
        { title: "Leaky Supply Lines", description: "Drips and bulges in the hoses under sinks and behind toilets." },
      ],
    },
    {
      kind: "benefits",
      heading: { title: "Our Specialties" },
      cards: [
        {
          icon: "home",
          title: "Bathroom Updates",
          description: "New faucets, shower heads, toilets and vanities for a fresh bathroom without a full remodel.",
        },
        {
          icon: "drop",
          title: "Kitchen Plumbing",
          description: "Sinks, faucets, disposals and dishwasher connections installed and repaired.",
        },
        {
          icon: "settings",
          title: "Fixture & Appliance Installs",
          description: "Bought it yourself? We install it properly, sealed and leak-tested.",
        },
        {
          icon: "search",
          title: "Preventive Check-Ups",
          description: "A walk-through of valves, hoses and fixtures that catches leaks before they cause damage.",
        },
      ],
    },
    {
      kind: "call",
      heading: {
        title: "Got a To-Do List? Call a Handyman Plumber",
        intro: "Tell us what needs fixing, and a licensed plumber can handle it all in one visit.",
      },
      placement: "contact_hero",
    },
    whyChooseUsSection,
  ],
};

import { freeEstimateCta, serviceHero, speakWithAProSection, whyChooseUsSection } from "~/content/shared-sections.ts";
import type { LandingPage } from "~/content/types.ts";

export const gasLineServices: LandingPage = {
  seo: {
    title: "Gas Line Repair, Leak Detection & Installation | 24/7",
    description:
      "Licensed gas line pros for leak detection, repair, new lines and appliance hookups. Pressure tested and up to code. 500+ 5-star reviews, available 24/7.",
    path: "/gas-line-services",
  },
  breadcrumb: "Gas Line Services",
  sections: [
    serviceHero({
      title: "Gas Line Repair & Installation",
      lead: "Gas work is no job for guesswork. Licensed gas line pros find and repair leaks, run new lines and hook up appliances safely, and pressure-test every connection before they leave.",
      cta: { label: "Call a Gas Line Pro", placement: "hero" },
      caption: "Licensed & Insured",
      badges: [
        { icon: "clock", label: "24/7 Emergency Service" },
        { icon: "star", label: "500+ 5-Star Reviews" },
      ],
      footnote: "Free estimates • Licensed gas fitters • 100% satisfaction guarantee",
    }),
    {
      kind: "services",
      heading: { title: "Gas Line Services", intro: "Safe, code-compliant gas work for homes and businesses." },
      cards: [
        {
          icon: "search",
          title: "Gas Leak Detection & Repair",
          description: "Electronic detectors pinpoint the leak, and the line is repaired and pressure-tested.",
        },
        {
          icon: "settings",
          title: "New Gas Line Installation",
          description:
            "New lines run for kitchens, additions, generators and heating systems, permitted and inspected.",
        },
        {
          icon: "flame",
          title: "Appliance Hookups",
          description:
            "Ranges, dryers, water heaters and furnaces connected with the correct fittings and shut-off valves.",
        },
        {
          icon: "wrench",
          title: "Gas Line Repair & Replacement",
          description: "Corroded, damaged or outdated pipe repaired or replaced with approved materials.",
        },
        {
          icon: "gauge",
          title: "Pressure Testing & Inspections",
          description: "Whole-system tests for home sales, remodels and peace of mind, with a written report.",
        },
        {
          icon: "home",
          title: "Outdoor Gas Lines",
          description: "Lines for grills, fire pits, patio heaters and pool heaters, buried safely and to code.",
        },
      ],
      cta: freeEstimateCta,
    },
    {
      kind: "problems",
      heading: { title: "Signs of a Gas Line Problem", intro: "Never ignore these. Gas problems only get worse." },
      problems: [
        {
          title: "Rotten Egg Smell",
          description: "Utility gas is given a sulfur smell so leaks can be noticed. Treat it as an emergency.",
        },
        {
          title: "Hissing or Whistling",
          description: "A hiss near a line, meter or appliance can mean gas escaping under pressure.",
        },
        {
          title: "Dead Plants Over the Line",
          description: "Grass or plants dying in a strip above a buried line can signal a leak underground.",
        },
        {
          title: "Higher Gas Bills",
          description: "A jump in usage you can't explain may be gas leaking out of the system.",
        },
        {
          title: "Yellow or Orange Flames",
          description: "Burners should burn blue. A lazy yellow flame points to poor combustion.",
        },
        {
          title: "Soot or Scorch Marks",
          description: "Black marks around an appliance mean it is burning badly and needs checking.",
        },
        {
          title: "Corroded Pipes or Fittings",
          description: "Rust and flaking on gas pipe weaken it until it starts to leak.",
        },
        {
          title: "Pilot Light Keeps Going Out",
          description: "A faulty thermocouple, a draft or a supply problem in the line.",
        },
      ],
    },
    {
      kind: "emergency-notice",
      heading: {
        title: "Smell Gas? Leave First, Then Call",
        intro: "A gas leak is dangerous. Your safety comes before any repair.",
      },
      steps: [
        "Get everyone out of the building right away, and leave the door open behind you.",
        "Don't switch lights or appliances on or off, light a flame or use a phone inside.",
        "From a safe distance outside, call 911 or your gas company's emergency line.",
        "Once the gas is shut off, call us for a licensed pro to find and repair the leak.",
      ],
    },
    {
      kind: "system-types",
      heading: { title: "Gas Piping We Work With" },
      types: [
        {
          title: "Black Iron Pipe",
          description: "The traditional threaded steel gas pipe: strong, durable and found in most homes.",
          bestFor: "Indoor runs and repairs",
        },
        {
          title: "CSST Flexible Tubing",
          description: "Corrugated stainless steel tubing that bends around corners with fewer joints.",
          bestFor: "Remodels and tight spaces",
        },
        {
          title: "Copper Gas Line",
          description: "Coated copper tubing where local code allows it, often used for short appliance runs.",
          bestFor: "Appliance connections",
        },
        {
          title: "Polyethylene (PE) Pipe",
          description: "Yellow plastic pipe made for buried lines, immune to rust and soil corrosion.",
          bestFor: "Underground outdoor lines",
        },
      ],
    },
    {
      kind: "reviews",
      heading: {
        title: "500+ 5-Star Reviews",
        intro: "Here's what a few of our customers said after their gas line work.",
      },
      reviews: [
        {
          name: "Robert M.",
          location: "Denver, CO",
          rating: 5,
          date: "2 weeks ago",
          text: "Smelled gas by the dryer on a Sunday night. The plumber was here within 30 minutes, found a bad fitting and fixed it. Very calm and professional.",
        },
        {
          name: "Linda K.",
          location: "Charlotte, NC",
          rating: 5,
          date: "1 month ago",
          text: "We needed a gas line run to our new range. Clear quote up front, permit handled, and the inspector passed it first time.",
        },
        {
          name: "Carlos R.",
          location: "San Antonio, TX",
          rating: 5,
          date: "3 weeks ago",
          text: "They ran a line out to our patio for the grill and fire pit. Neat trench, everything tested, and the yard looked untouched a week later.",
        },
        {
          name: "Amy W.",
          location: "Columbus, OH",
          rating: 5,
          date: "2 months ago",
          text: "Our pilot light kept going out. He tracked it down to a corroded section of pipe and replaced it the same afternoon. Fair price.",
        },
        {
          name: "David P.",
          location: "Tampa, FL",
          rating: 5,
          date: "1 week ago",
          text: "Needed a pressure test before selling our house. Came the next morning, explained every step and gave us a written report for the buyer.",
        },
        {
          name: "Karen S.",
          location: "Portland, OR",
          rating: 5,
          date: "5 days ago",
          text: "Honest and careful. He showed me the leak on his detector before fixing anything and cleaned up after himself. Highly recommend.",
        },
      ],
    },
    whyChooseUsSection,
    speakWithAProSection,
  ],
};

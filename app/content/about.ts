import type { LandingPage } from "~/content/types.ts";

export const about: LandingPage = {
  seo: {
    title: "About {company} | Trusted 24/7 Plumbing Help Since 2009",
    description:
      "Since 2009, {company} has connected homeowners and businesses with licensed, insured local plumbers, 24 hours a day. Over 15 years of fast, honest service.",
    path: "/about",
  },
  breadcrumb: "About Us",
  sections: [
    {
      kind: "hero",
      hero: {
        title: "About {company}",
        lead: "For over 15 years we have helped people with plumbing trouble reach a licensed local plumber fast, at any hour, with an honest price before any work begins.",
        badges: [
          { icon: "award", label: "Founded in 2009" },
          { icon: "star", label: "4.9/5 Rating (500+ Reviews)" },
        ],
        illustration: { caption: "Over 15 Years of Service" },
      },
    },
    {
      kind: "story",
      heading: { title: "Our Story" },
      paragraphs: [
        "{company} was founded in 2009 on a simple idea: when a pipe bursts at midnight, you should reach a real person who can send a plumber, not a voicemail. We started by answering the phone around the clock and connecting neighbours with licensed plumbers we knew would show up.",
        "Over 15 years later, that promise hasn't changed. We are a free referral service working with independent, licensed and insured local plumbers, and our line is open 24 hours a day, 7 days a week, holidays included.",
        "Every call gets the same care. We listen to what's wrong, find a pro who handles that kind of job, and make sure you hear the price before any work starts. No pressure, no surprises.",
      ],
    },
    {
      kind: "stats",
      heading: { title: "{company} by the Numbers" },
      stats: [
        { value: "500+", label: "Happy Customers" },
        { value: "24/7", label: "Emergency Service" },
        { value: "15+", label: "Years Experience" },
        { value: "100%", label: "Licensed & Insured" },
      ],
    },
    {
      kind: "benefits",
      heading: { title: "Why Customers Choose Us", intro: "Three things we never compromise on." },
      cards: [
        {
          icon: "shield",
          title: "Licensed & Insured",
          description:
            "Every plumber we send holds the licence and insurance the job requires, so your home is protected.",
        },
        {
          icon: "clock",
          title: "Fast Response",
          description:
            "Emergencies can't wait. Call any hour and a plumber is on the way, with same-day service on most jobs.",
        },
        {
          icon: "award",
          title: "Quality Guarantee",
          description: "Work is done right the first time and backed by a 100% satisfaction guarantee.",
        },
      ],
    },
    {
      kind: "call",
      heading: {
        title: "Need a Plumber Right Now?",
        intro: "Call any time, day or night. A real person answers and gets a licensed plumber on the way.",
      },
      placement: "about_cta",
    },
  ],
};

import type { BenefitCard, CallToAction, HeroContent, SectionHeading, ServiceCard, Testimonial } from "./types.ts";
import type { PageSeo } from "~/lib/seo.ts";

export const homeSeo: PageSeo = {
  title: "24/7 Emergency Plumbing Service | Fast, Licensed Local Plumbers",
  description:
    "Burst pipe, clogged drain or no hot water? Call 24/7 for fast, licensed and insured local plumbers. Free estimates, same-day service and a 100% satisfaction guarantee.",
  path: "/",
};

export const homeHero: HeroContent = {
  title: "24/7 Expert Plumbing service",
  lead: "Licensed local plumbers at affordable rates, with 24-hour emergency service for leaks, clogs, water heaters and everything in between. One call gets help on the way, day or night.",
  badges: [
    { icon: "clock", label: "24/7 Emergency Service" },
    { icon: "star", label: "4.9/5 Rating (500+ Reviews)" },
  ],
  cta: { label: "Get a Free Quote", placement: "hero" },
  footnote: "Free estimates • Same-day service • 100% satisfaction guarantee",
  illustration: { caption: "30+ Years Experience" },
};

export const homeServicesHeading: SectionHeading = {
  title: "Our Plumbing Services",
  intro: "From a dripping tap to a burst main, local pros handle it all with upfront, honest pricing.",
};

export const homeServices: ServiceCard[] = [
  {
    icon: "drop",
    title: "Emergency Leak Repair",
    description: "Burst pipes, hidden leaks and water damage stopped fast, before they spread.",
    price: "Starting at $45",
  },
  {
    icon: "wrench",
    title: "Drain Cleaning",
    description: "Slow or blocked sinks, tubs, toilets and main lines cleared and flowing again.",
    price: "Starting at $65",
    cta: { label: "Get a Free Quote", placement: "drain_cleaning" },
  },
  {
    icon: "flame",
    title: "Water Heater Service",
    description: "Repair, flushing and replacement for tank and tankless water heaters.",
    price: "Starting at $100",
  },
  {
    icon: "home",
    title: "Bathroom Plumbing",
    description: "Toilets, showers, tubs and vanities installed, repaired and sealed properly.",
    price: "Starting at $80",
  },
  {
    icon: "settings",
    title: "Whole House Plumbing",
    description: "Repiping, inspections and upgrades for older homes and new additions.",
    price: "Custom Quote",
  },
  {
    icon: "zap",
    title: "24/7 Emergency",
    description: "Nights, weekends and holidays: a plumber is ready whenever trouble starts.",
    price: "Emergency Rate",
  },
];

export const homeServicesCta: CallToAction = {
  label: "Get Free Estimate",
  shortLabel: "Call Now",
  placement: "services",
};

export const whyChooseUsHeading: SectionHeading = {
  title: "Why Choose Us",
  intro: "Straightforward service from people who show up on time and stand behind their work.",
};

export const whyChooseUs: BenefitCard[] = [
  {
    icon: "shield",
    title: "Licensed & Insured",
    description: "Every job is handled by licensed, insured plumbers for your peace of mind.",
  },
  {
    icon: "clock",
    title: "24/7 Availability",
    description: "Plumbing emergencies don't wait, and neither do we. Call any hour.",
  },
  {
    icon: "dollar",
    title: "Upfront Pricing",
    description: "You hear the price before work begins. No hidden fees, no surprises.",
  },
  {
    icon: "users",
    title: "Experienced Team",
    description: "Over 30 years of combined experience with every kind of plumbing system.",
  },
  {
    icon: "award",
    title: "Quality Guarantee",
    description: "100% satisfaction guaranteed, or we make it right.",
  },
  { icon: "zap", title: "Same-Day Service", description: "Call in the morning, and your problem is fixed today." },
];

export const homeContactHeading: SectionHeading = {
  title: "Speak With a Plumbing Pro Now",
  intro: "Tell us what's going on and we'll connect you with a licensed local plumber, day or night.",
};

export const homeTestimonials: Testimonial[] = [
  {
    heading: "Saved our basement at 2 a.m.",
    quote:
      "A pipe burst in the middle of the night. I called, and a plumber was at our door within 30 minutes. He shut off the water, fixed the line and even helped us move boxes. Calm, quick and fairly priced.",
    name: "Maria G.",
    location: "Phoenix, AZ",
    rating: 5,
  },
  {
    heading: "Honest price, no upsell",
    quote:
      "Our kitchen drain kept backing up. The plumber explained exactly what was wrong, quoted the price before starting and had it flowing in under an hour. I've already saved the number.",
    name: "James T.",
    location: "Columbus, OH",
    rating: 5,
  },
  {
    heading: "Hot water back the same day",
    quote:
      "Our water heater died on a Sunday with a full house of guests. They had someone out that afternoon and a new heater installed before dinner. Professional from start to finish.",
    name: "Priya S.",
    location: "Raleigh, NC",
    rating: 5,
  },
];

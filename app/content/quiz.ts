import type { CallToAction } from "./types.ts";
import type { PageSeo } from "~/lib/seo.ts";
import {
  homeAges,
  homeTypes,
  plumbingIssues,
  type HomeAge,
  type HomeType,
  type PlumbingIssue,
  type QuestionStep,
  type QuizCategory,
} from "~/lib/quiz.ts";

export const quizSeo: PageSeo = {
  title: "Free 2-Minute Plumbing Assessment | Expert Plumbers 24/7",
  description:
    "Answer four quick questions about your home and plumbing problem and get a recommendation and a service offer from licensed local plumbers, available 24/7.",
  path: "/quiz",
};

const intro = {
  title: "Free 2-Minute Plumbing Assessment",
  lead: "Answer four quick questions about your home and the problem you're seeing. You'll get a recommendation and a service offer, and you can call a licensed local plumber whenever you're ready.",
  points: ["Takes about 2 minutes", "4 quick questions", "Your answers stay on this page"],
  startLabel: "Start Assessment",
  noScriptNote: "The assessment needs JavaScript, which is turned off in your browser. You can call us instead:",
};

const plumbingIssueLabels: Record<PlumbingIssue, string> = {
  leaks: "Leaks or water damage",
  clogs: "Clogged drains or toilets",
  pressure: "Low water pressure",
  multiple: "Several problems at once",
  none: "No problems, just a check-up",
  other: "Something else",
};

const homeAgeLabels: Record<HomeAge, string> = {
  "0-5": "0–5 years",
  "5-15": "5–15 years",
  "15-30": "15–30 years",
  "30+": "More than 30 years",
};

const homeTypeLabels: Record<HomeType, string> = {
  house: "House",
  apartment: "Apartment or condo",
  townhouse: "Townhouse",
  commercial: "Commercial property",
  other: "Other",
};

export interface ChoiceQuestion {
  kind: "choice";
  legend: string;
  options: { value: string; label: string }[];
}

export interface TextQuestion {
  kind: "text";
  label: string;
  hint: string;
  placeholder: string;
}

/** Option order follows the spec, through the value lists in ~/lib/quiz.ts. */
const questions: Record<QuestionStep, ChoiceQuestion | TextQuestion> = {
  1: {
    kind: "choice",
    legend: "What plumbing problem are you dealing with?",
    options: plumbingIssues.map((value) => ({ value, label: plumbingIssueLabels[value] })),
  },
  2: {
    kind: "choice",
    legend: "How old is your home?",
    options: homeAges.map((value) => ({ value, label: homeAgeLabels[value] })),
  },
  3: {
    kind: "choice",
    legend: "What type of property is it?",
    options: homeTypes.map((value) => ({ value, label: homeTypeLabels[value] })),
  },
  4: {
    kind: "text",
    label: "What's your ZIP code?",
    hint: "Handy to have ready when you call. Like all your answers, it stays in your browser and is not sent to us.",
    placeholder: "e.g. 90210",
  },
};

export interface QuizResult {
  heading: string;
  offer: string;
  note: string;
  advice: string;
}

const results: Record<QuizCategory, QuizResult> = {
  emergency: {
    heading: "Emergency Service Recommended",
    offer: "25% OFF Emergency Service",
    note: "Available 24/7",
    advice:
      "A leak gets worse by the hour. If you can, close the main water valve now, then call: a local plumber can be on the way to stop the water and fix the cause.",
  },
  upgrade: {
    heading: "System Upgrade Consultation",
    offer: "FREE System Assessment",
    note: "Schedule within 48 hours",
    advice:
      "Several problems in a home over 30 years old often share one cause: ageing pipes. A full assessment shows what needs fixing now and what can wait.",
  },
  maintenance: {
    heading: "Preventive Maintenance Check",
    offer: "25% OFF Maintenance Service",
    note: "Book this week",
    advice:
      "No problems yet is the best time for a check-up. In an older home, a plumber can spot worn valves, slow leaks and sediment before they turn into repairs.",
  },
  standard: {
    heading: "Professional Service Available",
    offer: "25% OFF Any Service",
    note: "Same-day service available",
    advice: "A licensed local plumber can diagnose the problem and fix it, often the same day.",
  },
};

export const quizContent = {
  headline: "Expert Plumbers 24/7",
  intro,
  questions,
  nextLabel: "Next Question",
  finishLabel: "Get My Results",
  results,
  resultCta: { label: "Call Now for Service", placement: "quiz_results" } satisfies CallToAction,
  offerTerms:
    "Mention your assessment when you call. Offers are made by the participating independent plumber and may vary by area.",
  footer: {
    reassurance: "Licensed and insured local plumbers, free estimates and no obligation: we're here day and night.",
    cta: { label: "Call us 24/7", placement: "quiz_footer" } satisfies CallToAction,
  },
};

export type QuizContent = typeof quizContent;

import { describe, expect, it } from "vitest";
import {
  canAdvance,
  emptyQuizAnswers,
  homeAges,
  homeTypes,
  limitZipCode,
  nextStep,
  plumbingIssues,
  progressPercent,
  quizCategory,
  type HomeAge,
  type PlumbingIssue,
  type QuizAnswers,
  type QuizStep,
} from "./quiz.ts";

const answers = (overrides: Partial<QuizAnswers>): QuizAnswers => ({ ...emptyQuizAnswers, ...overrides });

describe("quiz options", () => {
  it("lists the spec's options in the spec's order", () => {
    expect(plumbingIssues).toEqual(["leaks", "clogs", "pressure", "multiple", "none", "other"]);
    expect(homeAges).toEqual(["0-5", "5-15", "15-30", "30+"]);
    expect(homeTypes).toEqual(["house", "apartment", "townhouse", "commercial", "other"]);
  });
});

describe("quizCategory", () => {
  it.each<[PlumbingIssue, HomeAge | "", string]>([
    // emergency: the issue is leaks, whatever the age.
    ["leaks", "0-5", "emergency"],
    ["leaks", "5-15", "emergency"],
    ["leaks", "15-30", "emergency"],
    ["leaks", "30+", "emergency"],
    // upgrade: multiple issues in a home of 30+ years; otherwise standard.
    ["multiple", "30+", "upgrade"],
    ["multiple", "15-30", "standard"],
    ["multiple", "5-15", "standard"],
    ["multiple", "0-5", "standard"],
    // maintenance: no issue in a home of 15-30 or 30+ years; otherwise standard.
    ["none", "15-30", "maintenance"],
    ["none", "30+", "maintenance"],
    ["none", "5-15", "standard"],
    ["none", "0-5", "standard"],
    // standard: everything else.
    ["clogs", "30+", "standard"],
    ["pressure", "15-30", "standard"],
    ["other", "30+", "standard"],
    ["clogs", "0-5", "standard"],
  ])("%s in a home aged %s is %s", (plumbingIssue, homeAge, category) => {
    expect(quizCategory(answers({ plumbingIssue, homeAge, homeType: "house", zipCode: "10001" }))).toBe(category);
  });

  it("counts 4 emergency, 1 upgrade, 2 maintenance and 17 standard over every issue and age", () => {
    const counts: Record<string, number> = {};
    for (const plumbingIssue of plumbingIssues)
      for (const homeAge of homeAges) {
        const category = quizCategory(answers({ plumbingIssue, homeAge }));
        counts[category] = (counts[category] ?? 0) + 1;
      }
    expect(counts).toEqual({ emergency: 4, upgrade: 1, maintenance: 2, standard: 17 });
  });

  it("ignores the property type and zip code", () => {
    for (const homeType of homeTypes) {
      expect(quizCategory(answers({ plumbingIssue: "none", homeAge: "30+", homeType, zipCode: "9" }))).toBe(
        "maintenance",
      );
    }
  });
});

describe("steps", () => {
  const complete = answers({ plumbingIssue: "clogs", homeAge: "5-15", homeType: "apartment", zipCode: "94107" });

  it("leaves the intro without an answer", () => {
    expect(canAdvance(0, emptyQuizAnswers)).toBe(true);
    expect(nextStep(0, emptyQuizAnswers)).toBe(1);
  });

  it.each<[QuizStep, keyof QuizAnswers]>([
    [1, "plumbingIssue"],
    [2, "homeAge"],
    [3, "homeType"],
    [4, "zipCode"],
  ])("keeps step %s until %s is answered", (step, key) => {
    const unanswered = { ...complete, [key]: "" };
    expect(canAdvance(step, unanswered)).toBe(false);
    expect(nextStep(step, unanswered)).toBe(step);
    expect(canAdvance(step, complete)).toBe(true);
    expect(nextStep(step, complete)).toBe(step + 1);
  });

  it("accepts any non-empty zip code, even spaces: non-empty is its only check", () => {
    expect(canAdvance(4, { ...complete, zipCode: "" })).toBe(false);
    for (const zipCode of ["   ", " ", "ab", "9"]) expect(canAdvance(4, { ...complete, zipCode })).toBe(true);
  });

  it("ends at the result, step 5", () => {
    expect(canAdvance(5, complete)).toBe(false);
    expect(nextStep(5, complete)).toBe(5);
    let step: QuizStep = 0;
    for (let move = 0; move < 10; move += 1) step = nextStep(step, complete);
    expect(step).toBe(5);
  });

  it("shows step / 5 as the completion", () => {
    expect([1, 2, 3, 4].map((step) => progressPercent(step as QuizStep))).toEqual([20, 40, 60, 80]);
  });

  it("keeps at most five characters of the zip code", () => {
    expect(limitZipCode("1234567")).toBe("12345");
    expect(limitZipCode("902")).toBe("902");
  });
});

/**
 * The plumbing quiz as pure logic: steps 0 to 5, one answer per question step,
 * and the result category. The answers stay in the page; nothing here sends them anywhere.
 */

export const plumbingIssues = ["leaks", "clogs", "pressure", "multiple", "none", "other"] as const;
export const homeAges = ["0-5", "5-15", "15-30", "30+"] as const;
export const homeTypes = ["house", "apartment", "townhouse", "commercial", "other"] as const;

export type PlumbingIssue = (typeof plumbingIssues)[number];
export type HomeAge = (typeof homeAges)[number];
export type HomeType = (typeof homeTypes)[number];

/** Every answer starts empty (""), meaning "not answered yet". */
export interface QuizAnswers {
  plumbingIssue: PlumbingIssue | "";
  homeAge: HomeAge | "";
  homeType: HomeType | "";
  zipCode: string;
}

export const emptyQuizAnswers: QuizAnswers = { plumbingIssue: "", homeAge: "", homeType: "", zipCode: "" };

export type QuizStep = 0 | 1 | 2 | 3 | 4 | 5;
export type QuestionStep = 1 | 2 | 3 | 4;

export const INTRO_STEP = 0;
const RESULT_STEP = 5;
export const QUESTION_COUNT = 4;
export const ZIP_CODE_MAX_LENGTH = 5;

/** The answer each question step asks for, in order. */
export const questionAnswerKeys: Record<QuestionStep, keyof QuizAnswers> = {
  1: "plumbingIssue",
  2: "homeAge",
  3: "homeType",
  4: "zipCode",
};

export function isQuestionStep(step: QuizStep): step is QuestionStep {
  return step >= 1 && step <= QUESTION_COUNT;
}

/**
 * The intro can always be left; a question only once its answer is non-empty (for the zip
 * code that is the only check, so even spaces count); the result is the end.
 */
export function canAdvance(step: QuizStep, answers: QuizAnswers): boolean {
  if (step === RESULT_STEP) return false;
  if (!isQuestionStep(step)) return true;
  return answers[questionAnswerKeys[step]] !== "";
}

export function nextStep(step: QuizStep, answers: QuizAnswers): QuizStep {
  return canAdvance(step, answers) ? ((step + 1) as QuizStep) : step;
}

/** Completion shown on question steps: step divided by 5, as a whole percentage (20, 40, 60, 80). */
export function progressPercent(step: QuizStep): number {
  return Math.round((step / RESULT_STEP) * 100);
}

/** The zip field is free text: at most five characters, no digit check. */
export function limitZipCode(value: string): string {
  return value.slice(0, ZIP_CODE_MAX_LENGTH);
}

export type QuizCategory = "emergency" | "upgrade" | "maintenance" | "standard";

/** The result's category: the first matching rule wins, leaks first. */
export function quizCategory(answers: QuizAnswers): QuizCategory {
  if (answers.plumbingIssue === "leaks") return "emergency";
  if (answers.plumbingIssue === "multiple" && answers.homeAge === "30+") return "upgrade";
  if (answers.plumbingIssue === "none" && (answers.homeAge === "15-30" || answers.homeAge === "30+"))
    return "maintenance";
  return "standard";
}

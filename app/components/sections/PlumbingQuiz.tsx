import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from "react";
import { HeroIllustration } from "~/components/HeroIllustration.tsx";
import { Icon } from "~/components/Icon.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import type { QuizContent } from "~/content/quiz.ts";
import { useNonce } from "~/lib/nonce.ts";
import { QUIZ_START_ATTRIBUTE, quizEarlyStartScript, takeEarlyStart } from "~/lib/quiz-early-start.ts";
import {
  canAdvance,
  emptyQuizAnswers,
  INTRO_STEP,
  isQuestionStep,
  limitZipCode,
  nextStep,
  progressPercent,
  QUESTION_COUNT,
  questionAnswerKeys,
  quizCategory,
  ZIP_CODE_MAX_LENGTH,
  type QuestionStep,
  type QuizAnswers,
  type QuizStep,
} from "~/lib/quiz.ts";

/** Full class names, so Tailwind sees them: the bar's fill for each question step. */
const progressFill: Record<QuestionStep, string> = { 1: "w-1/5", 2: "w-2/5", 3: "w-3/5", 4: "w-4/5" };

/** The quiz page's one section: headline, the assessment card, and a call area with an illustration. */
export function PlumbingQuiz({ content }: { content: QuizContent }) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white py-12">
      <div className="mx-auto max-w-3xl px-4">
        <h1 className="text-center text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">
          {content.headline}
        </h1>
        <div className="mt-8 rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-10">
          <QuizSteps content={content} />
        </div>
        <div className="mt-12 grid items-center gap-6 sm:grid-cols-2" data-testid="quiz-footer">
          <div>
            <p className="text-lg text-slate-700">{content.footer.reassurance}</p>
            <CallButton placement={content.footer.cta.placement} size="lg" className="mt-4">
              {content.footer.cta.label}
            </CallButton>
          </div>
          <HeroIllustration className="h-auto w-full" />
        </div>
      </div>
    </section>
  );
}

/**
 * Intro, four questions, result. The answers live in this component's state only: the form has
 * no action and never submits to the server.
 */
function QuizSteps({ content }: { content: QuizContent }) {
  const [step, setStep] = useState<QuizStep>(INTRO_STEP);
  const [answers, setAnswers] = useState<QuizAnswers>(emptyQuizAnswers);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const nonce = useNonce();

  const startButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // A tap on "Start Assessment" before hydration is replayed now that the button works.
    if (takeEarlyStart()) startButton.current?.click();
  }, []);

  useEffect(() => {
    // Each step replaces the last, so keyboard and screen reader users are moved to its heading.
    if (step !== INTRO_STEP) stepHeading.current?.focus();
  }, [step]);

  const advance = (event?: FormEvent) => {
    event?.preventDefault();
    setStep((current) => nextStep(current, answers));
  };

  if (step === INTRO_STEP) {
    return (
      <div className="text-center">
        <h2 className="text-2xl font-bold text-brand-900 sm:text-3xl">{content.intro.title}</h2>
        <p className="mx-auto mt-3 max-w-xl text-slate-700">{content.intro.lead}</p>
        <ul className="mt-6 flex flex-wrap justify-center gap-3">
          {content.intro.points.map((point) => (
            <li key={point} className="inline-flex items-center gap-2 rounded-full bg-brand-50 px-4 py-2 font-semibold">
              <Icon name="check" className="size-4 text-call-700" />
              {point}
            </li>
          ))}
        </ul>
        {/* The server's HTML carries the script that records an early tap; hydration keeps it as it is. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? quizEarlyStartScript() : "" }}
        />
        <button
          type="button"
          ref={startButton}
          {...{ [QUIZ_START_ATTRIBUTE]: "" }}
          onClick={() => advance()}
          className="mt-8 rounded-lg bg-brand-700 px-7 py-4 text-lg font-bold text-white hover:bg-brand-900 [@media(scripting:none)]:hidden"
        >
          {content.intro.startLabel}
        </button>
        <p className="mt-8 hidden text-slate-700 [@media(scripting:none)]:block">{content.intro.noScriptNote}</p>
      </div>
    );
  }

  if (!isQuestionStep(step)) {
    const result = content.results[quizCategory(answers)];
    return (
      <div className="text-center" data-testid="quiz-result">
        <h2 ref={stepHeading} tabIndex={-1} className="text-2xl font-bold text-brand-900 outline-none sm:text-3xl">
          {result.heading}
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-slate-700">{result.advice}</p>
        <div className="mx-auto mt-6 max-w-md rounded-2xl border-2 border-dashed border-call-600 bg-green-50 p-6">
          <p className="text-2xl font-extrabold text-call-700">{result.offer}</p>
          <p className="mt-1 font-semibold text-slate-800">{result.note}</p>
        </div>
        <CallButton placement={content.resultCta.placement} size="lg" className="mt-8">
          {content.resultCta.label}
        </CallButton>
        <p className="mx-auto mt-4 max-w-md text-sm text-slate-600">{content.offerTerms}</p>
      </div>
    );
  }

  const question = content.questions[step];
  const answerKey = questionAnswerKeys[step];
  const setAnswer = (value: string) => setAnswers((current) => ({ ...current, [answerKey]: value }));
  return (
    <form onSubmit={advance} noValidate>
      <QuizProgress step={step} />
      {question.kind === "choice" ? (
        <fieldset className="mt-8">
          <legend className="w-full">
            <h2 ref={stepHeading} tabIndex={-1} className="text-2xl font-bold text-brand-900 outline-none">
              {question.legend}
            </h2>
          </legend>
          <div className="mt-4 grid gap-3 sm:grid-cols-2">
            {question.options.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-center gap-3 rounded-xl border-2 border-slate-200 p-4 font-semibold hover:border-brand-600 has-checked:border-brand-700 has-checked:bg-brand-50"
              >
                <input
                  type="radio"
                  name={answerKey}
                  value={option.value}
                  checked={answers[answerKey] === option.value}
                  onChange={() => setAnswer(option.value)}
                  className="size-5 shrink-0 accent-brand-700"
                />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <ZipCodeQuestion
          label={question.label}
          hint={question.hint}
          placeholder={question.placeholder}
          value={answers.zipCode}
          onChange={(value) => setAnswer(limitZipCode(value))}
          headingRef={stepHeading}
        />
      )}
      <button
        type="submit"
        disabled={!canAdvance(step, answers)}
        className="mt-8 w-full rounded-lg bg-brand-700 px-7 py-4 text-lg font-bold text-white hover:bg-brand-900 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600 sm:w-auto"
      >
        {step === QUESTION_COUNT ? content.finishLabel : content.nextLabel}
      </button>
    </form>
  );
}

function QuizProgress({ step }: { step: QuestionStep }) {
  const percent = progressPercent(step);
  const position = `Question ${step} of ${QUESTION_COUNT}`;
  return (
    <div>
      <div className="flex justify-between text-sm font-semibold text-slate-700">
        <span>{position}</span>
        <span>{percent}% Complete</span>
      </div>
      <div
        role="progressbar"
        aria-label="Assessment progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${position}, ${percent}% complete`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full rounded-full bg-brand-700 transition-all motion-reduce:transition-none ${progressFill[step]}`}
        />
      </div>
    </div>
  );
}

interface ZipCodeQuestionProps {
  label: string;
  hint: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
}

function ZipCodeQuestion({ label, hint, placeholder, value, onChange, headingRef }: ZipCodeQuestionProps) {
  const inputId = useId();
  const hintId = useId();
  return (
    <div className="mt-8">
      <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-brand-900 outline-none">
        <label htmlFor={inputId}>{label}</label>
      </h2>
      <p id={hintId} className="mt-2 text-slate-700">
        {hint}
      </p>
      <input
        id={inputId}
        type="text"
        inputMode="numeric"
        autoComplete="postal-code"
        maxLength={ZIP_CODE_MAX_LENGTH}
        placeholder={placeholder}
        aria-describedby={hintId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="mt-4 w-full max-w-xs rounded-lg border-2 border-slate-300 px-4 py-3 text-lg focus:border-brand-700"
      />
    </div>
  );
}

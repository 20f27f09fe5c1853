/**
 * A tap on "Start Assessment" before the page's scripts have hydrated it is not lost: a small inline
 * script, in the page's HTML ahead of the button, records it, and the quiz starts as soon as it hydrates.
 * Nothing is sent anywhere; the record is one flag on the window.
 */

const STATE_KEY = "__plumblineQuizStart";
const TAPPED = "tapped";
const HYDRATED = "hydrated";

/** The attribute that marks the start button for the inline script. */
export const QUIZ_START_ATTRIBUTE = "data-quiz-start";

/** Records a tap on the start button until the quiz has hydrated. Self-contained: it is serialised. */
function recordEarlyStart(
  doc: Document,
  win: Window,
  attribute: string,
  key: string,
  tapped: string,
  hydrated: string,
) {
  const state = win as unknown as Record<string, string | undefined>;
  doc.addEventListener(
    "click",
    (event) => {
      if (state[key] === hydrated) return;
      if (event.target instanceof Element && event.target.closest(`[${attribute}]`)) state[key] = tapped;
    },
    true,
  );
}

export function quizEarlyStartScript(): string {
  const args = [QUIZ_START_ATTRIBUTE, STATE_KEY, TAPPED, HYDRATED].map((value) => JSON.stringify(value));
  return `(${recordEarlyStart.toString()})(document, window, ${args.join(", ")});`;
}

/** Called once the quiz has hydrated: whether the visitor tapped "Start Assessment" before it had. Later taps are React's. */
export function takeEarlyStart(): boolean {
  const state = window as unknown as Record<string, string | undefined>;
  const tapped = state[STATE_KEY] === TAPPED;
  state[STATE_KEY] = HYDRATED;
  return tapped;
}

/** How the console names a call's outcome; the console filters calls by these. */
export const CALL_OUTCOMES = ["Answered", "Missed", "Voicemail"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/**
 * What call tracking gives the conversions module: answered calls, each with the visit's source and campaign and
 * its ad click ids (none under Global Privacy Control). The calls module satisfies it; without call tracking there
 * is no such function, and the "Answered call" action and column are not shown.
 */
export interface AnsweredCall {
  /** Stable across reads: a download holds each call once. */
  id: string;
  answeredAt: Date;
  durationSeconds: number;
  source: string;
  campaign: string;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
}

/** Answered calls that started in [from, until). */
export type ListAnsweredCalls = (from: Date, until: Date) => Promise<AnsweredCall[]>;

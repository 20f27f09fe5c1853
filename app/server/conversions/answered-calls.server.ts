/**
 * What call tracking gives the conversions module: answered calls, each with the visit's source and campaign and
 * its ad click ids (none under Global Privacy Control), and their counts per source and campaign. The calls module
 * satisfies it; without call tracking there is none, and the "Answered call" action and column are not shown.
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

export interface AnsweredCalls {
  /** Answered calls that started in [from, until) from a visit with an ad click id. */
  list(from: Date, until: Date): Promise<AnsweredCall[]>;
  /** How many of them lasted at least `minSeconds`, per source and campaign ("" for none). */
  counts(from: Date, until: Date, minSeconds: number): Promise<{ source: string; campaign: string; calls: number }[]>;
}

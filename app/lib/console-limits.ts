/** Limits of the console's forms and lists, shared by the server and the pages (no dependencies: pages ship this file). */

/** A note on a lead. */
export const NOTE_MAX_LENGTH = 2_000;
/** The inbox search. */
export const SEARCH_MAX_LENGTH = 100;
/** A conversion action's name: Google Ads and Microsoft Advertising allow 100 characters. */
export const ACTION_NAME_MAX_LENGTH = 100;
/** A spend row's source or campaign, as long as the counted values can be. */
export const SPEND_TEXT_MAX_LENGTH = 100;
/** The largest spend CSV accepted: years of monthly spend for dozens of campaigns. */
export const SPEND_CSV_MAX_BYTES = 64 * 1024;
/**
 * How far a console list counts its rows, so that the count stays as cheap as a page: 10,000, and a search's matches
 * 1,000. Each row a search matches is read and compared again: counting 10,000 matches of a common name took
 * 45-150 ms on a busy year's embedded database, and 1,000 took 27-99.
 */
export const countLimitOf = (search: string): number => (search ? 1_000 : 10_000);
/** A text to a customer: ten SMS segments. */
export const TEXT_MAX_LENGTH = 1_600;
/** The missed-call text-back's message (the company's name and the opt-out words are added to it). */
export const TEXT_BACK_MESSAGE_MAX_LENGTH = 300;

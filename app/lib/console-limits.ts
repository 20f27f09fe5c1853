/** Input limits of the console's forms, shared by the server's validation and the fields' maxlength. */

/** A note on a lead. */
export const NOTE_MAX_LENGTH = 2_000;
/** The inbox search. */
export const SEARCH_MAX_LENGTH = 100;

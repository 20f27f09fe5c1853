/**
 * A CSV cell that is safe to open in a spreadsheet: none is run as a formula, and a cell holding the separator of
 * either convention (`,` or `;`, as in many European locales), a quote or a line break is quoted. The same rules in
 * JavaScript (`csvCell`) and in SQL (`csvCellSql`, for the leads CSV PostgreSQL writes itself), built from the same
 * characters.
 */

type Cell = string | Date | null;

/** JavaScript's `\s`, spelled out one by one, so that PostgreSQL's expressions match exactly the same spaces. */
const SPACES =
  "\\t\\n\\v\\f\\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";
// A cell starting with one of these, even after spaces, is run as a formula by spreadsheet programs; a negative
// number alone ("-20.00", a credit on a statement) is read as the number it is, and stays one.
const FORMULA_START = `^[\\t\\r]|^[${SPACES}]*[=+\\-@]`;
const NEGATIVE_NUMBER = "^-[0-9]+(\\.[0-9]+)?$";
const QUOTED_CHARACTERS = ['"', ",", ";", "\r", "\n"];

const formulaStart = new RegExp(FORMULA_START);
const negativeNumber = new RegExp(NEGATIVE_NUMBER);
const needsQuotes = new RegExp(`[${QUOTED_CHARACTERS.join("")}]`);

export function csvCell(value: Cell): string {
  const text = value instanceof Date ? value.toISOString() : (value ?? "");
  const safe = formulaStart.test(text) && !negativeNumber.test(text) ? `'${text}` : text;
  return needsQuotes.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** The first characters a formula can start with, by code point: a cheap test before the expressions. */
const FORMULA_FIRST_CODES = [..."\t\n\v\f\r =+-@"].map((character) => character.codePointAt(0)).join(", ");

/**
 * `csvCell` of a text expression (null as empty), in SQL. A cell is tested with the expressions only when its first
 * character could start a formula, and for the quoted characters one at a time (`strpos`): PostgreSQL's regular
 * expressions cost more than the rest of a lead's line (BENCHMARKS, "The leads CSV written by PostgreSQL").
 */
export function csvCellSql(value: string): string {
  const mayBeFormula = `(ascii(${value}) IN (${FORMULA_FIRST_CODES}) OR ascii(${value}) >= 128)`;
  const guarded =
    `CASE WHEN ${mayBeFormula} AND ${value} ~ ${sqlText(FORMULA_START)} AND ${value} !~ ${sqlText(NEGATIVE_NUMBER)}` +
    ` THEN '''' || ${value} ELSE ${value} END`;
  const quoted = QUOTED_CHARACTERS.map((character) => `strpos(${value}, ${sqlText(character)}) > 0`).join(" OR ");
  return `coalesce(CASE WHEN ${quoted} THEN '"' || replace(${guarded}, '"', '""') || '"' ELSE ${guarded} END, '')`;
}

/**
 * CSV for the admin's downloads (RFC 4180): CRLF line ends, a field quoted when it holds a
 * comma, semicolon, tab, quote or line break, quotes doubled. A UTF-8 byte-order mark starts the file, since
 * Excel otherwise reads UTF-8 as the local code page and garbles names such as "Zoë".
 *
 * Customers type these values, and a spreadsheet runs a cell that starts with = + - @ (or a
 * tab or carriage return before one) as a formula (OWASP "CSV injection"). Such text cells get a
 * leading apostrophe, which spreadsheets show as plain text. Numbers are written as numbers.
 * Two more ways in are closed the same way: the fullwidth forms (＝ ＋ － ＠), which some
 * spreadsheets fold to their ASCII twins, and a separator followed by a formula character inside
 * the text ("Acme;=HYPERLINK(…)"): a spreadsheet set to split on ';' or tabs, as Excel is in many
 * European locales, would start a new cell there.
 */
export const CSV_BOM = '\uFEFF';

export type CsvCell = string | number | boolean | null | undefined | Date;

const FORMULA_CHARACTERS = '=+\\-@\uFF1D\uFF0B\uFF0D\uFF20';
const FORMULA_START = new RegExp(`^[${FORMULA_CHARACTERS}\\t\\r]`);
const FORMULA_AFTER_SEPARATOR = new RegExp(`[,;\\t]\\s*[${FORMULA_CHARACTERS}]`);
const NEEDS_QUOTES = /[",;\t\r\n]/;

function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text) || FORMULA_AFTER_SEPARATOR.test(text);
}

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (value instanceof Date) text = value.toISOString();
  else text = isFormulaLike(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Money in a CSV: pence as pounds with two decimals, as bookkeeping tools read it (104900 -> '1049.00'). */
export function csvPounds(pence: number): string {
  return (pence / 100).toFixed(2);
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

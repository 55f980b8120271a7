/**
 * CSV for the admin's downloads (RFC 4180): CRLF line ends, a field quoted when it holds a
 * comma, quote or line break, quotes doubled. A UTF-8 byte-order mark starts the file, since
 * Excel otherwise reads UTF-8 as the local code page and garbles names such as "Zoë".
 *
 * Customers type these values, and a spreadsheet runs a cell that starts with = + - @ (or a
 * tab or carriage return before one) as a formula (OWASP "CSV injection"). Such text cells get a
 * leading apostrophe, which spreadsheets show as plain text. Numbers are written as numbers.
 */
export const CSV_BOM = '\uFEFF';

export type CsvCell = string | number | boolean | null | undefined | Date;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (value instanceof Date) text = value.toISOString();
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

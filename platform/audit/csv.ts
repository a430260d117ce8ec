/**
 * CSV text (RFC 4180): a field with a comma, a quote or a line break is quoted, its quotes
 * doubled. A field that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab
 * or a carriage return) gets a leading apostrophe, as OWASP advises against CSV injection:
 * entries carry text that providers chose (names, reasons, labels).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** One record, ended by CRLF as the RFC says. */
export function csvRecord(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

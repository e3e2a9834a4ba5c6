/*
 * CSV as Patchbay writes it (the console's downloads, record exports): RFC 4180 fields, CRLF line
 * ends, and text that a spreadsheet would take for a formula made inert (OWASP "CSV Injection").
 */

/** A number as a spreadsheet reads it: harmless even when it starts with a sign. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** What a spreadsheet may take for the start of a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell's text made inert for spreadsheets: one that starts like a formula (`=`, `+`, `-`, `@`, tab or
 * CR) gets a leading `'`, as OWASP recommends, so `=HYPERLINK(…)` or `=cmd|…` from a record reaches the
 * spreadsheet as text. A plain number (a negative price) is left as it is.
 */
function inert(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; arrays and objects
 * as JSON; null and absent as an empty field; formula-like text neutralised (inert).
 */
export function csvField(value: unknown): string {
  const text = inert(
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value),
  );
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of CSV: the row's `columns`, in that order, and CRLF. */
export function csvRow(columns: readonly string[], row: object): string {
  return columns.map((c) => csvField(Reflect.get(row, c))).join(',') + '\r\n';
}

/** Rows as CSV with a header line of `columns`, CRLF line ends. */
export function toCsv(columns: readonly string[], rows: readonly object[]): string {
  const header = columns.map(csvField).join(',') + '\r\n';
  return header + rows.map((r) => csvRow(columns, r)).join('');
}

import { csvField, csvRow, type ExportFormat } from '@patchbay/contracts';

/** How records become the lines of an export file. */
export interface ExportEncoding {
  /** What the file starts with (CSV: the header line). */
  readonly head: string;
  /** One record (as the list returns it) as its line, line end included. */
  line(record: Record<string, unknown>): string;
}

/**
 * NDJSON: each record exactly as the list returns it, one JSON object per line (`\n`). CSV (RFC 4180,
 * CRLF): a header of the kind's field names (the list's, in its order), then one row per record, with
 * the console's formula-injection guard; lists as JSON, null as an empty field.
 */
export function exportEncoding(format: ExportFormat, fieldNames: readonly string[]): ExportEncoding {
  if (format === 'ndjson') return { head: '', line: (r) => `${JSON.stringify(r)}\n` };
  return { head: `${fieldNames.map(csvField).join(',')}\r\n`, line: (r) => csvRow(fieldNames, r) };
}

import { csvField, csvRow, type ExportFormat } from '@patchbay/contracts';
import type { RecordDoc } from './record-docs';
import type { RecordFields } from './record-fields';
import { recordJsonWriter } from './record-json';
import { serializeRecord } from './serialize';

/** How records become the lines of an export file. */
export interface ExportEncoding {
  /** What the file starts with (CSV: the header line). */
  readonly head: string;
  /** One stored record as its line (the record as the list returns it), line end included. */
  line(record: RecordDoc): string;
}

/**
 * NDJSON: each record exactly as the list returns it, one JSON object per line (`\n`). CSV (RFC 4180,
 * CRLF): a header of the kind's field names (the list's, in its order), then one row per record, with
 * the console's formula-injection guard; lists as JSON, null as an empty field.
 */
export function exportEncoding(format: ExportFormat, fields: RecordFields): ExportEncoding {
  if (format === 'ndjson') {
    const json = recordJsonWriter(fields);
    return { head: '', line: (r) => `${json(r)}\n` };
  }
  return {
    head: `${fields.names.map(csvField).join(',')}\r\n`,
    line: (r) => csvRow(fields.names, serializeRecord(fields, r)),
  };
}

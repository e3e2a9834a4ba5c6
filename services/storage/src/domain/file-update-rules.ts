import { UnprocessableError } from '@patchbay/contracts';
import type { FileDoc } from './documents';

/**
 * File fields fixed by the upload (docs/interface-notes.md, Files: "set at creation"): a PATCH or
 * PUT that sends one of them with another value is refused by name, never silently dropped. The
 * same value (a GET result sent back) is fine. Fields the server keeps moving itself (dates, sizes,
 * `content_*`, `publish_uri`) stay ignored: a copy read a moment ago may hold an older value.
 */
export const FILE_SET_AT_CREATION = [
  'container_sid',
  'content_classification',
  'desired_bitrate',
  'desired_format',
  'file_sid',
  'partner_sid',
  'type',
  'unique',
] as const;

/** `desired_bitrate` may be sent as a string ("128"): compared as the number it is stored as. */
function sameValue(field: string, sent: unknown, stored: unknown): boolean {
  if (field === 'desired_bitrate' && typeof sent === 'string' && sent !== '') return Number(sent) === stored;
  return sent === stored;
}

/** Throws a 422 naming the first set-at-creation field `sent` would change on `current`. */
export function checkSetAtCreation(current: FileDoc, sent: Readonly<Record<string, unknown>>): void {
  for (const field of FILE_SET_AT_CREATION) {
    const value = sent[field];
    if (value === undefined || sameValue(field, value, current[field])) continue;
    throw UnprocessableError.field(field, `${field} cannot be changed after creation`);
  }
}

import type { RecordDoc } from './record-docs';
import type { RecordFields } from './record-fields';

/** ISO 8601 UTC with milliseconds; stores hand back Date objects. */
const iso = (d: unknown): string | null =>
  d instanceof Date || typeof d === 'string' ? new Date(d).toISOString() : null;

/** Strips the store's own keys so a stored country is exactly the API object. */
export function serializeCountry(c: Record<string, unknown>): Record<string, unknown> {
  const { _id: _ignored, ...rest } = c;
  return rest;
}

/**
 * A stored detail record as the API object: every field of the kind present, keys in alphabetical
 * order, `null` when unknown (`[]` for a list). A record stored before a field existed simply
 * reads it as absent.
 */
export function serializeRecord(fields: RecordFields, doc: RecordDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of fields.names) {
    const kind = fields.kinds[name];
    const value = doc[name];
    if (kind === 'timestamp') out[name] = iso(value);
    else if (kind === 'list') out[name] = Array.isArray(value) ? value : [];
    else out[name] = value ?? null;
  }
  return out;
}

import parseRange from 'range-parser';
import { ifRangeMatches } from './conditional';

export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * What to send for a `Range` header on an object of `size` bytes: one range → 206; unsatisfiable
 * → 416; several ranges, a malformed header, or an `If-Range` that does not match `lastModified`
 * → the whole object with 200 (RFC 9110 lets a server ignore Range).
 */
export function decideRange(
  size: number,
  range: string | undefined,
  ifRange: string | undefined,
  lastModified: string,
  /** The representation's strong tag: an If-Range may carry it instead of the date. */
  etag?: string,
): RangeDecision {
  if (!range) return { kind: 'full' };
  if (ifRange !== undefined && !ifRangeMatches(ifRange, etag, lastModified)) return { kind: 'full' };
  const parsed = parseRange(size, range, { combine: true });
  if (parsed === -1) return { kind: 'unsatisfiable' };
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1) return { kind: 'full' };
  return { kind: 'partial', start: parsed[0].start, end: parsed[0].end };
}

/**
 * Rules every blob adapter applies identically: which keys are valid and what a byte range means.
 */
import { BadRequestError, RangeNotSatisfiableError } from '@patchbay/contracts';
import type { ByteRange } from './port';

const SEGMENT = /^[A-Za-z0-9._-]+$/;
const MAX_KEY_LENGTH = 1024;

/**
 * A key is `/`-separated segments of `[A-Za-z0-9._-]`: no leading, trailing or doubled `/`, no `..`
 * anywhere, no `.` segment, and not under `.tmp/` (the directory store's scratch space).
 * Throws BadRequestError otherwise.
 */
export function assertKey(key: string): void {
  const bad =
    typeof key !== 'string' ||
    key.length === 0 ||
    key.length > MAX_KEY_LENGTH ||
    key.includes('..') ||
    key.split('/').some((s) => !SEGMENT.test(s) || s === '.') ||
    key === '.tmp' ||
    key.startsWith('.tmp/');
  if (bad) throw BadRequestError.field('key', `invalid blob key '${String(key).slice(0, 100)}'`);
}

/**
 * The inclusive range to serve from an object of `size` bytes, following HTTP: an end at or past the
 * last byte is served to the end; a start at or past the end is RangeNotSatisfiableError(size).
 * A malformed range (negative, fractional, end before start) is a BadRequestError.
 */
export function resolveRange(range: ByteRange | undefined, size: number): ByteRange | undefined {
  if (range === undefined) return undefined;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw BadRequestError.field('range', `invalid byte range ${start}-${end}`);
  }
  if (start >= size) throw new RangeNotSatisfiableError({ size });
  return { start, end: Math.min(end, size - 1) };
}

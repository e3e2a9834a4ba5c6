/**
 * A usage answer from the store's rows: every bucket of the range present (an empty one as zeros), with
 * a second key every value the range holds in every bucket, in date order (then key order, null first).
 */
import { BadRequestError } from '@patchbay/contracts';
import { bucketDate, calendarBuckets, calendarEnd, zonedDate, type BucketRow } from '@patchbay/platform';
import type { UsageKind } from './usage-kinds';
import type { UsageRequest } from './usage-request';

/** The most items one answer holds (buckets × values of the second key). */
export const MAX_USAGE_ITEMS = 10_000;

export interface UsageAnswer {
  from: string;
  to: string;
  group_by: string;
  tz: string;
  items: Record<string, unknown>[];
}

const tooMany = (n: number) =>
  BadRequestError.field(
    'group_by',
    `the answer would hold ${n} items, more than ${MAX_USAGE_ITEMS}: group by a longer unit, or narrow the range or ` +
      'the filter',
  );

type Key = string | null;
const keyOf = (row: BucketRow): Key => (row.key === null || row.key === undefined ? null : String(row.key));

export function usageAnswer(kind: UsageKind, req: UsageRequest, rows: readonly BucketRow[]): UsageAnswer {
  if (rows.length > MAX_USAGE_ITEMS) throw tooMany(rows.length);
  const buckets = calendarBuckets(req.unit, req.timeZone, req.from, req.to);
  const keys: Key[] =
    req.by === undefined
      ? [null]
      : [...new Set(rows.map(keyOf))].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0));
  if (buckets.length * keys.length > MAX_USAGE_ITEMS) throw tooMany(buckets.length * keys.length);
  const found = new Map(rows.map((r) => [`${r.start.getTime()} ${keyOf(r)}`, r.values]));
  const zeros = Object.fromEntries(Object.keys(kind.measures).map((m) => [m, 0]));
  const items = buckets.flatMap((b) =>
    keys.map((key) => ({
      date: bucketDate(b),
      ...(req.by !== undefined && { [req.by]: key }),
      ...kind.item(found.get(`${b.start.getTime()} ${key}`) ?? zeros),
    })),
  );
  return {
    from: bucketDate(buckets[0]),
    to: zonedDate(req.timeZone, calendarEnd(req.unit, req.timeZone, buckets)),
    group_by: req.by === undefined ? req.unit : `${req.unit},${req.by}`,
    tz: req.timeZone,
    items,
  };
}

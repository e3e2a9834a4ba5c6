/**
 * A usage answer's rows from the hourly rollups where they may answer (usage-rollups.ts): whole UTC hours
 * of clean days from the rollups, and from the records the part of an hour at either end of the range and
 * every dirty day. Only for a filter on the date alone, without a second key, and buckets that start on
 * whole hours (every zone whose offsets are whole hours); otherwise null, and the records answer alone.
 */
import { calendarBuckets, calendarEnd, type BucketRow, type Collection } from '@patchbay/platform';
import { andFilters } from '@patchbay/query';
import type { RecordDoc } from '../domain/record-docs';
import type { UsageKind } from '../domain/usage-kinds';
import type { UsageRequest } from '../domain/usage-request';
import type { KindName, UsageRollupRepo } from './usage-rollups';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Totals of the records of `partner` in [from, to) that the request's filter selects. */
type RecordTotals = (from: Date, to: Date) => Promise<BucketRow[]>;

export async function rollupRows(
  usage: UsageRollupRepo,
  kindName: KindName,
  kind: UsageKind,
  records: Collection<RecordDoc>,
  partner: string,
  req: UsageRequest,
  maxRows: number,
): Promise<BucketRow[] | null> {
  if (!req.dateOnly || req.by !== undefined) return null;
  const hours = usage.hours[kindName];
  const recordTotals = records.bucketTotals?.bind(records);
  const hourTotals = hours.bucketTotals?.bind(hours);
  if (!recordTotals || !hourTotals) return null;
  if (!(await usage.state.findOne({ kind: kindName }))?.backfilled) return null;
  const buckets = calendarBuckets(req.unit, req.timeZone, req.from, req.to);
  const end = calendarEnd(req.unit, req.timeZone, buckets);
  if (buckets.some((b) => b.start.getTime() % HOUR !== 0) || end.getTime() % HOUR !== 0) return null;

  const query = (from: Date, to: Date) => ({
    unit: req.unit,
    timeZone: req.timeZone,
    from,
    to,
    measures: kind.measures,
    maxRows,
  });
  const fromRecords: RecordTotals = (from, to) =>
    recordTotals(andFilters({ partner_sid: partner }, req.filter, { [kind.dateField]: { $gte: from, $lt: to } }), {
      dateField: kind.dateField,
      ...query(from, to),
    });
  const firstHour = new Date(Math.ceil(req.from.getTime() / HOUR) * HOUR);
  const lastHour = new Date(Math.floor(req.to.getTime() / HOUR) * HOUR);
  if (firstHour >= lastHour) return fromRecords(req.from, req.to);

  const dirty = await usage.dirty.find(
    {
      kind: kindName,
      partner_sid: partner,
      day: {
        $gte: firstHour.toISOString().slice(0, 10),
        $lte: new Date(lastHour.getTime() - 1).toISOString().slice(0, 10),
      },
    },
    { projection: { day: 1 } },
  );
  const dirtyDays = dirty.map((d) => d.day);
  const parts: Promise<BucketRow[]>[] = [
    hourTotals(
      {
        partner_sid: partner,
        hour: { $gte: firstHour, $lt: lastHour },
        ...(dirtyDays.length > 0 && { day: { $nin: dirtyDays } }),
      },
      {
        dateField: 'hour',
        ...query(firstHour, lastHour),
        measures: Object.fromEntries(Object.keys(kind.measures).map((m) => [m, { sum: m }])),
      },
    ),
  ];
  if (req.from < firstHour) parts.push(fromRecords(req.from, firstHour));
  if (lastHour < req.to) parts.push(fromRecords(lastHour, req.to));
  for (const day of dirtyDays) {
    const start = Math.max(Date.parse(`${day}T00:00:00Z`), firstHour.getTime());
    const stop = Math.min(Date.parse(`${day}T00:00:00Z`) + DAY, lastHour.getTime());
    if (start < stop) parts.push(fromRecords(new Date(start), new Date(stop)));
  }
  const merged = new Map<number, BucketRow>();
  for (const row of (await Promise.all(parts)).flat()) {
    const seen = merged.get(row.start.getTime());
    if (!seen) merged.set(row.start.getTime(), { start: row.start, values: { ...row.values } });
    else for (const [m, v] of Object.entries(row.values)) seen.values[m] = (seen.values[m] ?? 0) + v;
  }
  return [...merged.values()];
}

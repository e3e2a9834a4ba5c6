/**
 * `bucketTotals` on MongoDB: an aggregation pipeline (`$match`, `$group` by the bucket's label from
 * `$dateToString` in the query's time zone, `$limit`). The labels are calendar-buckets.ts's, so a row
 * goes back to its bucket's first instant through them; a label the calendar does not know (a time
 * zone database that disagrees with this runtime's) is left out rather than misplaced.
 */
import type { Document } from 'mongodb';
import { fieldOf } from '../basics/error-fields';
import { calendarBuckets, type CalendarUnit } from './calendar-buckets';
import type { BucketMeasure, BucketQuery, BucketRow, Filter } from './port';

const FORMATS: Record<CalendarUnit, string> = { month: '%Y-%m', day: '%Y-%m-%d', hour: '%Y-%m-%dT%H%z' };

function accumulator(m: BucketMeasure): Document {
  const value = 'count' in m ? 1 : `$${m.sum}`;
  if (!m.where) return { $sum: value };
  return { $sum: { $cond: [{ $eq: [`$${m.where.path}`, m.where.value] }, value, 0] } };
}

/** The pipeline, and how to read its rows back. */
export function mongoBucketPipeline(
  filter: Filter,
  query: BucketQuery,
): { pipeline: Document[]; read(rows: Document[]): BucketRow[] } {
  const buckets = calendarBuckets(query.unit, query.timeZone, query.from, query.to);
  const starts = new Map(buckets.map((b) => [b.label, b.start]));
  const names = Object.keys(query.measures);
  const label: Document = { date: `$${query.dateField}`, format: FORMATS[query.unit] };
  // UTC is the default; named, it would be one more name for an emulator's zone parser to know.
  if (query.timeZone !== 'UTC') label.timezone = query.timeZone;
  const group: Document = { _id: { b: { $dateToString: label }, ...(query.by && { k: `$${query.by}` }) } };
  names.forEach((name, n) => (group[`m${n}`] = accumulator(query.measures[name])));
  const range = buckets.length === 0 ? { $in: [] } : { $gte: query.from, $lt: query.to };
  return {
    pipeline: [
      { $match: { $and: [filter, { [query.dateField]: range }] } },
      { $group: group },
      { $limit: query.maxRows },
    ],
    read: (rows) =>
      rows.flatMap((row) => {
        const bucket = fieldOf(row._id, 'b');
        const start = typeof bucket === 'string' ? starts.get(bucket) : undefined;
        if (!start) return [];
        const values: Record<string, number> = {};
        names.forEach((name, n) => (values[name] = Number(row[`m${n}`] ?? 0)));
        const key = fieldOf(row._id, 'k');
        return [
          {
            start,
            ...(query.by !== undefined && {
              key: typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean' ? key : null,
            }),
            values,
          },
        ];
      }),
  };
}

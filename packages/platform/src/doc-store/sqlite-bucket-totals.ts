/**
 * `bucketTotals` on the embedded store: one SQL `GROUP BY`. The calendar buckets (calendar-buckets.ts)
 * come in as one JSON parameter, a CTE of `(i, lo, hi)` instants as date keys (sqlite-keys.ts), and
 * are joined to the collection by a range on the date field's key: with an index that leads with the
 * filter's equality fields and the date (`partner_sid, date_stop, …`), each bucket is one index range,
 * and when the index also holds the measured fields SQLite answers from the index alone.
 */
import type { Filter, BucketQuery, BucketRow } from './port';
import { calendarBuckets, calendarEnd } from './calendar-buckets';
import type { KeyColumn } from './sqlite-filter';
import { jsonPath, keyExpression, NULL_KEY_SQL, sqlString } from './sqlite-keys';

/** What the query needs of its collection. */
export interface BucketSource {
  table: string;
  columnOf(path: string): KeyColumn | undefined;
  /** The filter compiled for this table, its residual (if any) ready to bind. */
  compile(filter: Filter): { where: string; params: unknown[] };
  all(sql: string, params: unknown[]): Record<string, unknown>[];
}

/** The date key of a millisecond count, as sqlite-keys.ts builds it for a Date. */
const dateKey = (ms: string): string => `CAST(printf('4%017d', ${ms} + 10000000000000000) AS BLOB)`;

/** The path's value: its key column where there is one (an index may then cover the query), else the JSON. */
function valueOf(source: BucketSource, path: string): { sql: string; column: boolean } {
  const col = source.columnOf(path);
  if (col) return { sql: col.column, column: true };
  return { sql: `json_extract(doc, ${sqlString(jsonPath(path.split('.')))})`, column: false };
}

/** A number, or NULL: a key column holds -Infinity for null and a text or blob for other types. */
function numberOf(source: BucketSource, path: string): string {
  const v = valueOf(source, path).sql;
  return `CASE WHEN typeof(${v}) IN ('integer', 'real') AND ${v} > ${NULL_KEY_SQL} THEN ${v} END`;
}

/** A key column's boolean and null keys back to values; any other key (array, object, Date) to null. */
function decodeKey(v: unknown): string | number | boolean | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (Buffer.isBuffer(v)) return v.toString('latin1') === '31' ? true : v.toString('latin1') === '30' ? false : null;
  return null;
}

export function sqliteBucketTotals(source: BucketSource, filter: Filter, query: BucketQuery): BucketRow[] {
  const buckets = calendarBuckets(query.unit, query.timeZone, query.from, query.to);
  if (buckets.length === 0) return [];
  const end = calendarEnd(query.unit, query.timeZone, buckets).getTime();
  // Each bucket's range cut to [from, to): the index walks only what is counted (a month bucket
  // around a range of an hour would otherwise walk the month and test every row against the filter).
  const [from, to] = [query.from.getTime(), query.to.getTime()];
  const bounds = buckets.map((b, i) => [
    Math.max(b.start.getTime(), from),
    Math.min(buckets[i + 1]?.start.getTime() ?? end, to),
  ]);
  const date = source.columnOf(query.dateField)?.column ?? `(${keyExpression(query.dateField)})`;
  const names = Object.keys(query.measures);
  const params: unknown[] = [];
  const selects = names.map((name, n) => {
    const m = query.measures[name];
    let value = 'count' in m ? '1' : numberOf(source, m.sum);
    if (m.where) {
      value = `CASE WHEN ${valueOf(source, m.where.path).sql} = ? THEN ${value} END`;
      params.push(m.where.value);
    }
    return `coalesce(sum(${value}), 0) AS "m${n}"`;
  });
  const by = query.by === undefined ? undefined : valueOf(source, query.by);
  const compiled = source.compile(filter);
  const sql =
    `WITH pb_b(pb_i, pb_lo, pb_hi) AS (SELECT key, ${dateKey("json_extract(value, '$[0]')")},` +
    ` ${dateKey("json_extract(value, '$[1]')")} FROM json_each(?))` +
    ` SELECT pb_i${by ? `, ${by.sql} AS pb_key` : ''}, ${selects.join(', ')}` +
    ` FROM pb_b CROSS JOIN ${source.table}` +
    ` WHERE ${date} >= pb_lo AND ${date} < pb_hi AND (${compiled.where})` +
    ` GROUP BY pb_i${by ? ', pb_key' : ''} LIMIT ?`;
  const rows = source.all(sql, [JSON.stringify(bounds), ...params, ...compiled.params, query.maxRows]);
  return rows.map((row) => {
    const values: Record<string, number> = {};
    names.forEach((name, n) => (values[name] = Number(row[`m${n}`])));
    return {
      start: buckets[Number(row.pb_i)].start,
      ...(by && { key: decodeKey(row.pb_key) }),
      values,
    };
  });
}

/**
 * Calendar buckets in a time zone: the hours, days or months that cover a range of instants, each
 * with its first instant and its label. Both document stores group by them (port.ts, `bucketTotals`):
 * the embedded store by the instants (a range join), MongoDB by the label (`$dateToString` in the same
 * zone gives the same text), so both place every document alike.
 *
 * A day or month starts at local midnight (at the first instant after it where a DST change skips
 * midnight). An hour is a local hour: the fall-back hour that repeats is two buckets, told apart by the
 * offset in the label.
 */

export type CalendarUnit = 'hour' | 'day' | 'month';

export interface CalendarBucket {
  /** The bucket's first instant. */
  start: Date;
  /** `YYYY-MM` (month), `YYYY-MM-DD` (day), `YYYY-MM-DDTHH±hhmm` (hour): local time. */
  label: string;
  /** The local offset at `start`, in minutes east of UTC. */
  offsetMinutes: number;
}

const HOUR = 3_600_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * `zone` as this runtime names it (`europe/paris` → `Europe/Paris`, `utc` → `UTC`), or null when it is
 * not an IANA time zone it knows.
 */
export function canonicalTimeZone(zone: string): string | null {
  try {
    const name = formatFor(zone).resolvedOptions().timeZone;
    formatFor(name);
    return name;
  } catch {
    return null;
  }
}

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The local wall-clock time at `t`, as the UTC milliseconds that have the same fields. */
function wallClock(zone: string, t: number): number {
  if (zone === 'UTC') return t;
  const parts: Record<string, number> = {};
  for (const p of formatFor(zone).formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const ms = ((t % 1000) + 1000) % 1000;
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second, ms);
}

const offsetAt = (zone: string, t: number): number => wallClock(zone, t) - t;

/** The first instant whose wall-clock time is at or after `wall` (a wall time skipped by DST moves on). */
function instantOf(zone: string, wall: number): number {
  let t = wall - offsetAt(zone, wall);
  t = wall - offsetAt(zone, t);
  while (wallClock(zone, t) < wall) t += HOUR / 4;
  return t;
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

function labelOf(unit: CalendarUnit, wall: number, offsetMinutes: number): string {
  const d = new Date(wall);
  const month = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}`;
  if (unit === 'month') return month;
  const day = `${month}-${pad(d.getUTCDate())}`;
  if (unit === 'day') return day;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const off = Math.abs(offsetMinutes);
  return `${day}T${pad(d.getUTCHours())}${sign}${pad(Math.floor(off / 60))}${pad(off % 60)}`;
}

/** The wall-clock start of the unit holding wall time `wall`. */
function floorWall(unit: CalendarUnit, wall: number): number {
  const d = new Date(wall);
  if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (unit === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
}

function nextWall(unit: CalendarUnit, wallStart: number): number {
  const d = new Date(wallStart);
  if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  if (unit === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return wallStart + HOUR;
}

/**
 * The buckets of `unit` in `zone` that hold an instant of [from, to), in order. `to` after `from`;
 * `zone` an IANA name (isTimeZone). The last bucket ends at `calendarEnd(...)`.
 */
export function calendarBuckets(unit: CalendarUnit, zone: string, from: Date, to: Date): CalendarBucket[] {
  const out: CalendarBucket[] = [];
  const end = to.getTime();
  let t = instantOf(zone, floorWall(unit, wallClock(zone, from.getTime())));
  while (t < end) {
    const wall = wallClock(zone, t);
    const offsetMinutes = Math.round((wall - t) / 60_000);
    out.push({ start: new Date(t), label: labelOf(unit, floorWall(unit, wall), offsetMinutes), offsetMinutes });
    // An hour is an hour of elapsed time (so the repeated fall-back hour is its own bucket), then
    // put back on a local hour boundary should the zone's offset have moved by part of an hour.
    const next = unit === 'hour' ? t + HOUR : instantOf(zone, nextWall(unit, floorWall(unit, wall)));
    const nextWallTime = wallClock(zone, next);
    t = nextWallTime === floorWall(unit, nextWallTime) ? next : instantOf(zone, floorWall(unit, nextWallTime) + HOUR);
  }
  return out;
}

/** The instant after the last of `buckets` (the start of the bucket that follows it). */
export function calendarEnd(unit: CalendarUnit, zone: string, buckets: readonly CalendarBucket[]): Date {
  const last = buckets[buckets.length - 1];
  if (!last) throw new Error('calendarEnd needs at least one bucket');
  if (unit === 'hour') return new Date(last.start.getTime() + HOUR);
  const wall = floorWall(unit, wallClock(zone, last.start.getTime()));
  return new Date(instantOf(zone, nextWall(unit, wall)));
}

/** The bucket's start as ISO 8601 in its zone's offset (`Z` at offset 0): `2026-03-01T00:00:00+01:00`. */
export function bucketDate(bucket: CalendarBucket): string {
  return isoAt(bucket.start, bucket.offsetMinutes);
}

/** An instant as ISO 8601 (to the second) in `zone`'s offset at that instant (`Z` at offset 0). */
export function zonedDate(zone: string, at: Date): string {
  return isoAt(at, Math.round(offsetAt(zone, at.getTime()) / 60_000));
}

function isoAt(at: Date, offsetMinutes: number): string {
  const wall = new Date(at.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${wall}Z`;
  const off = Math.abs(offsetMinutes);
  return `${wall}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(off / 60))}:${pad(off % 60)}`;
}

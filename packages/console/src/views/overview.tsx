import { useEffect, useMemo, useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { Chart, type ChartSeries } from '../components/chart';
import { ProblemBanner } from '../components/field';
import { problemOf, otherMessages, type Problem } from '../errors';
import { bytes } from '../format';
import { wholeItems } from '../whole';
import type { Session } from '../session';

type CallItem = Schemas['CallUsageItem'];
type MessageItem = Schemas['MessageUsageItem'];
type Container = Schemas['Container'];

const DAY = 86_400_000;
/** The ranges offered: up to 13 months (the API answers up to 400 days). */
const RANGES = [
  { id: '30d', label: 'Last 30 days', days: 30 },
  { id: '90d', label: 'Last 90 days', days: 90 },
  { id: '6m', label: 'Last 6 months', days: 183 },
  { id: '13m', label: 'Last 13 months', days: 395 },
] as const;
type RangeId = (typeof RANGES)[number]['id'];
const rangeOf = (value: string): RangeId => RANGES.find((r) => r.id === value)?.id ?? '30d';
/** Containers drawn in the storage chart (one request each): the first ones listed. */
const MAX_CONTAINERS = 8;
const COLORS = ['#1f5fbf', '#1d7a3a', '#b3261e', '#8a5a00', '#6b3fa0', '#00788a', '#5b6576', '#c2410c'];

/** The browser's own zone, so a day is the viewer's day (the API's `tz`). */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

interface Loaded {
  /** The first UTC day of the storage snapshots asked for. */
  from: string;
  calls: CallItem[];
  messages: MessageItem[];
  /** Per container: its name and its daily snapshots. */
  storage: Array<{ container: Container; items: Schemas['ContainerUsageItem'][] }>;
}

async function load(session: Session, days: number, unit: 'day' | 'month'): Promise<Loaded> {
  const since = new Date(Date.now() - days * DAY).toISOString();
  const query = (field: string) => ({ group_by: unit, tz: ZONE, filter: `${field} ge ${since}` });
  const api = session.client.api;
  const [calls, messages, containers] = await Promise.all([
    data(api.GET('/calls/call_drs/usage', { params: { query: query('date_stop') } })),
    data(api.GET('/sms/message_drs/usage', { params: { query: query('date_insert') } })),
    data(api.GET('/storage/containers', { params: { query: { limit: MAX_CONTAINERS } } })),
  ]);
  const from = since.slice(0, 10);
  const storage = await Promise.all(
    wholeItems<Container>(containers).items.map(async (container) => {
      const path = { container_sid: container.container_sid };
      const answer = await data(
        api.GET('/storage/containers/{container_sid}/usage', { params: { path, query: { from } } }),
      );
      return { container, items: answer.items };
    }),
  );
  return { from, calls: calls.items, messages: messages.items, storage };
}

/** A bucket's date as the viewer reads it: the day (or month) in the answer's zone. */
const bucketLabel = (iso: string, unit: 'day' | 'month') => iso.slice(0, unit === 'day' ? 10 : 7);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/**
 * The overview, first after sign-in: calls and minutes per day (or month) over a range of up to 13
 * months with ASR and ACD, messages, and each container's storage over time — charts with the values
 * under the pointer, each with its numbers as a table.
 */
export function OverviewView({ session }: { session: Session }) {
  const [range, setRange] = useState<RangeId>('30d');
  const [unit, setUnit] = useState<'day' | 'month'>('day');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const days = RANGES.find((r) => r.id === range)?.days ?? 30;
  useEffect(() => {
    let current = true;
    setLoaded(null);
    load(session, days, unit).then(
      (l) => {
        if (!current) return;
        setLoaded(l);
        setProblem(null);
      },
      (err: unknown) => {
        if (current) setProblem(problemOf(err));
      },
    );
    return () => {
      current = false;
    };
  }, [session, days, unit]);

  const calls = loaded?.calls ?? [];
  const messages = loaded?.messages ?? [];
  const callTimes = useMemo(() => calls.map((i) => Date.parse(i.date)), [loaded]);
  const messageTimes = useMemo(() => messages.map((i) => Date.parse(i.date)), [loaded]);
  // The buckets' labels, once for the three call charts (the unit is the one the answer was asked in).
  const callLabels = useMemo(() => calls.map((i) => bucketLabel(i.date, unit)), [loaded]);
  const messageLabels = useMemo(() => messages.map((i) => bucketLabel(i.date, unit)), [loaded]);
  const series = useMemo(() => charts(loaded), [loaded]);
  const answered = sum(calls.map((i) => i.answered));
  const callCount = sum(calls.map((i) => i.calls));
  const totals = [
    ['Calls', String(callCount)],
    ['Minutes', String(round(sum(calls.map((i) => i.minutes))))],
    ['ASR', callCount ? `${round((100 * answered) / callCount, 1)} %` : '—'],
    // From the buckets' (rounded) ACDs, weighted by their answered calls.
    ['ACD', answered ? `${round(sum(calls.map((i) => i.acd * i.answered)) / answered)} min` : '—'],
    ['Cost', String(round(sum(calls.map((i) => i.cost)) + sum(messages.map((i) => i.cost)), 4))],
    ['Messages', String(sum(messages.map((i) => i.messages)))],
  ];
  return (
    <section aria-labelledby="overview-title" class="overview">
      <h1 id="overview-title">Overview</h1>
      <form id="overview-range" class="inline-form" onSubmit={(e) => e.preventDefault()}>
        <label class="field">
          <span>Range</span>
          <select id="overview-range-select" value={range} onChange={(e) => setRange(rangeOf(e.currentTarget.value))}>
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Per</span>
          <select
            id="overview-unit"
            value={unit}
            onChange={(e) => setUnit(e.currentTarget.value === 'month' ? 'month' : 'day')}
          >
            <option value="day">day</option>
            <option value="month">month</option>
          </select>
        </label>
        <span class="hint">Days in {ZONE}</span>
      </form>
      <ProblemBanner messages={otherMessages(problem, [])} />
      {!loaded && !problem && <p aria-live="polite">Loading…</p>}
      {loaded && series && (
        <>
          <dl class="totals" aria-label="Totals over the range">
            {totals.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <div class="charts">
            <Chart title="Calls" times={callTimes} labels={callLabels} series={series.calls} />
            <Chart title="Minutes" times={callTimes} labels={callLabels} series={series.minutes} />
            <Chart title="ASR (%) and ACD (minutes)" times={callTimes} labels={callLabels} series={series.quality} />
            <Chart title="Messages" times={messageTimes} labels={messageLabels} series={series.messages} />
            <Chart
              title="Storage per container"
              times={series.storageTimes}
              labels={series.storageTimes.map((t) => new Date(t).toISOString().slice(0, 10))}
              series={series.storage}
              format={bytes}
            />
          </div>
        </>
      )}
    </section>
  );
}

/** The series of each chart, built once per answer (a chart redraws when its series change). */
function charts(loaded: Loaded | null) {
  if (!loaded) return null;
  const { calls, messages, storage } = loaded;
  // Every UTC day of the range (the snapshots' days), a day without a snapshot as a gap.
  const days: string[] = [];
  for (let t = Date.parse(`${loaded.from}T00:00:00Z`); t <= Date.now(); t += DAY)
    days.push(new Date(t).toISOString().slice(0, 10));
  const storageSeries: ChartSeries[] = storage.map((s, n) => {
    const byDay = new Map(s.items.map((i) => [i.date, i.bytes]));
    return {
      label: s.container.name || s.container.container_sid,
      values: days.map((d) => byDay.get(d) ?? null),
      color: COLORS[n % COLORS.length],
    };
  });
  return {
    calls: [
      { label: 'Calls', values: calls.map((i) => i.calls), color: COLORS[0], bars: true },
      { label: 'Answered', values: calls.map((i) => i.answered), color: COLORS[1], bars: true },
    ],
    minutes: [{ label: 'Minutes', values: calls.map((i) => i.minutes), color: COLORS[3], bars: true }],
    quality: [
      { label: 'ASR (%)', values: calls.map((i) => (i.calls ? round(i.asr * 100, 1) : null)), color: COLORS[1] },
      { label: 'ACD (min)', values: calls.map((i) => (i.answered ? i.acd : null)), color: COLORS[4], right: true },
    ],
    messages: [
      { label: 'Messages', values: messages.map((i) => i.messages), color: COLORS[5], bars: true },
      { label: 'Segments', values: messages.map((i) => i.segments), color: COLORS[6] },
    ],
    storage: storageSeries,
    storageTimes: days.map((d) => Date.parse(`${d}T00:00:00Z`)),
  } satisfies Record<string, unknown>;
}

/**
 * Usage answers at scale (docs/benchmarks.md, Usage): N full call records of one partner (default
 * 10,000,000; bench/lib/detail-records.ts) spread evenly over the 395 days before now, on the all-in-one
 * as `pnpm start` runs it; then through the HTTP API, the p50/p95 of a 30-day and a 13-month usage answer
 * per day (targets ≤ 100 ms and ≤ 1 s), beside walking the list of the same range with cursor pages of
 * 1,000 and adding the records up in the client (the baseline; the 13-month walk is stopped after
 * WALK_LIMIT_S seconds and its time extrapolated from its rate).
 *
 *   pnpm exec tsx bench/usage.ts [N=10000000] [--keep]
 *
 * Seeding: the fastest honest way. The records are stored by the records service's own ingest steps
 * (planIngest: validation and conversion; touchUsage: the usage days marked; storeNewRecords) straight
 * into the service's SQLite file while the server is stopped — what the ingest route does, without the
 * HTTP and bus hops, which bench/embedded-scale.ts and records-ingest.ts measure. The server then starts
 * on that data directory, and its usage roller brings the hourly rollups up to date before anything is
 * timed (the bench watches the dirty days drain from the file, read-only). Data directory
 * .bench-tmp/usage-<N>, removed at the end unless --keep (a kept one is reused: no second seeding).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDocStore, sqliteFile } from '../packages/platform/src';
import { planIngest } from '../services/records/src/domain/ingest-plan';
import { CALL_RECORDS } from '../services/records/src/domain/record-kinds';
import { openRecordsRepo, storeNewRecords } from '../services/records/src/repo';
import { touchUsage } from '../services/records/src/usage/usage-rollups';
import { freePort } from '../tests/harness/free-port';
import { BENCH_TOKEN, runBench, startAllInOne, type BenchServer } from './lib/all-in-one-server';
import { callRecordLine } from './lib/detail-records';
import { table } from './lib/proc';

const ROOT = path.resolve(__dirname, '..');
// Plain JavaScript (scripts/start.cjs runs before anything is compiled); typed here by hand.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureBundle } = require('../scripts/start.cjs') as { ensureBundle(name: string): { file: string } };
const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000_000);
const KEEP = process.argv.includes('--keep');
const DAY = 86_400_000;
const SPAN_DAYS = 395;
const BATCH = 10_000;
const WALK_LIMIT_S = 60;

async function start(dataDir: string): Promise<BenchServer> {
  const [port, storagePort] = [await freePort(), await freePort()];
  return startAllInOne({ dataDir, port, storagePort, readyPath: '/core/v2/oauth/whoami', everyMs: 50 });
}

async function stop(server: BenchServer): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

async function get(origin: string, url: string): Promise<{ ms: number; body: Record<string, unknown> }> {
  const t = performance.now();
  const res = await fetch(`${origin}/core/v2${url}`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms: performance.now() - t, body };
}

/** Stores records [0, N) of `partner`, record i stopping at t0 + i × step, through the ingest's own steps. */
async function seed(dataDir: string, partner: string, t0: number, step: number): Promise<number> {
  const store = new SqliteDocStore({ file: sqliteFile(dataDir, 'records') });
  const repo = await openRecordsRepo(store);
  const started = performance.now();
  const now = new Date();
  for (let from = 0; from < N; from += BATCH) {
    const items = [];
    for (let i = from; i < Math.min(N, from + BATCH); i++)
      items.push({ position: i, raw: JSON.parse(callRecordLine(i, t0, step)) as Record<string, unknown> });
    const plan = planIngest(CALL_RECORDS, items, () => partner, now);
    if (plan.errors.length > 0) throw new Error(`records refused: ${JSON.stringify(plan.errors[0])}`);
    await touchUsage(repo.usage, 'call_drs', plan.docs);
    await storeNewRecords(repo.callDrs, plan.docs);
    if ((from + BATCH) % 1_000_000 === 0) process.stderr.write(`  seeded ${from + BATCH}\n`);
  }
  await store.close();
  return N / ((performance.now() - started) / 1000);
}

/** Waits until the server's roller has recomputed every dirty day (read-only, beside the server). */
async function rolledUp(dataDir: string): Promise<number> {
  const started = performance.now();
  const db = new Database(sqliteFile(dataDir, 'records'), { readonly: true, fileMustExist: true });
  try {
    for (;;) {
      const { n } = db.prepare('SELECT count(*) AS n FROM usage_dirty_days').get() as { n: number };
      if (n === 0) return (performance.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    db.close();
  }
}

/** p50 and p95 (ms) of `runs` answers of `url`. */
async function percentiles(origin: string, url: string, runs: number): Promise<{ p50: number; p95: number }> {
  await get(origin, url); // warm
  const times: number[] = [];
  for (let r = 0; r < runs; r++) times.push((await get(origin, url)).ms);
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(runs * 0.5)], p95: times[Math.min(runs - 1, Math.ceil(runs * 0.95) - 1)] };
}

/** Walks the list over `filter` in cursor pages of 1,000, adding up calls and minutes; stops after `limitS`. */
async function walk(
  origin: string,
  filter: string,
  limitS: number,
): Promise<{ records: number; minutes: number; s: number }> {
  const started = performance.now();
  let after: string | undefined;
  let records = 0;
  let seconds = 0;
  for (;;) {
    const q = `filter=${encodeURIComponent(filter)}&limit=1000&order=date_stop&include_fields=dr_sid,duration_billing`;
    const { body } = await get(origin, `/calls/call_drs?${q}${after ? `&after=${after}` : ''}`);
    const items = body.items as Array<{ dr_sid: string; duration_billing: string | null }>;
    for (const i of items) seconds += Number(i.duration_billing ?? 0);
    records += items.length;
    if (items.length < 1000 || (performance.now() - started) / 1000 > limitS) break;
    after = items[items.length - 1].dr_sid;
  }
  return { records, minutes: seconds / 60, s: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const dataDir = path.join(ROOT, '.bench-tmp', `usage-${N}`);
  const seeded = fs.existsSync(path.join(dataDir, 'seeded'));
  if (!seeded) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const rows: Array<Record<string, string | number>> = [];
  const row = (what: string, value: string | number, target = '') => {
    rows.push({ what, value, target });
    process.stderr.write(`${what}: ${value}\n`);
  };
  ensureBundle('all-in-one');
  let server = await start(dataDir);
  const partner = ((await get(server.origin, '/oauth/whoami')).body.partner_sid as string).toLowerCase();
  const end = fs.existsSync(path.join(dataDir, 'seeded'))
    ? Number(fs.readFileSync(path.join(dataDir, 'seeded'), 'utf8'))
    : Date.now();
  const step = (SPAN_DAYS * DAY) / N;
  row('records (one partner, evenly over 395 days)', N.toLocaleString('en'));
  if (!seeded) {
    await stop(server);
    row(
      'seeded (records/s, the ingest steps without HTTP)',
      Math.round(await seed(dataDir, partner, end - SPAN_DAYS * DAY, step)),
    );
    fs.writeFileSync(path.join(dataDir, 'seeded'), String(end));
    server = await start(dataDir);
  }
  row(
    'wait for the rollups once the server answered (s; the roller runs from its start)',
    (await rolledUp(dataDir)).toFixed(1),
  );
  const origin = server.origin;
  const now = Date.now();
  const days = (d: number) => `date_stop ge ${new Date(now - d * DAY).toISOString()}`;
  const usage = (filter: string, groupBy = 'day') =>
    `/calls/call_drs/usage?group_by=${groupBy}&filter=${encodeURIComponent(filter)}`;

  const month = await percentiles(origin, usage(days(30)), 20);
  row('30-day usage per day, p50 / p95 (ms)', `${month.p50.toFixed(1)} / ${month.p95.toFixed(1)}`, 'p95 ≤ 100');
  const year = await percentiles(origin, usage(days(395)), 10);
  row('13-month usage per day, p50 / p95 (ms)', `${year.p50.toFixed(1)} / ${year.p95.toFixed(1)}`, 'p95 ≤ 1,000');
  const yearMonths = await percentiles(origin, usage(days(395), 'month'), 10);
  row('13-month usage per month, p50 / p95 (ms)', `${yearMonths.p50.toFixed(1)} / ${yearMonths.p95.toFixed(1)}`);
  const paris = await percentiles(origin, `${usage(days(395))}&tz=Europe%2FParis`, 10);
  row('13-month usage per day in Europe/Paris, p50 / p95 (ms)', `${paris.p50.toFixed(1)} / ${paris.p95.toFixed(1)}`);
  // The same 30 days from the records alone (a second key keeps the rollups out): the GROUP BY path.
  const scan = await percentiles(origin, usage(days(30), 'day,direction'), 5);
  row(
    '30-day usage per day and direction (records, no rollups), p50 / p95 (ms)',
    `${scan.p50.toFixed(1)} / ${scan.p95.toFixed(1)}`,
  );
  const scanYear = await percentiles(origin, usage(days(395), 'day,direction'), 3);
  row(
    '13-month usage per day and direction (records), p50 / p95 (ms)',
    `${scanYear.p50.toFixed(1)} / ${scanYear.p95.toFixed(1)}`,
  );

  const walk30 = await walk(origin, days(30), 600);
  row(
    'baseline: walking the list, 30 days (s)',
    `${walk30.s.toFixed(1)} (${walk30.records.toLocaleString('en')} records)`,
  );
  const walkYear = await walk(origin, days(395), WALK_LIMIT_S);
  const total = Math.round((N * (SPAN_DAYS - 0.01)) / SPAN_DAYS);
  const extrapolated = walkYear.records >= total ? walkYear.s : (walkYear.s * total) / walkYear.records;
  const how =
    walkYear.records < total
      ? ` (extrapolated: ${walkYear.records.toLocaleString('en')} records in ${walkYear.s.toFixed(0)} s)`
      : '';
  row('baseline: walking the list, 13 months (s)', `${extrapolated.toFixed(0)}${how}`);
  await stop(server);
  process.stdout.write(`\n${table(rows)}\n`);
  if (!KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
}

runBench(main);

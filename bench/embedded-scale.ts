/**
 * The all-in-one default at scale, through its HTTP API only: N full call records of one partner
 * (default 10,000,000; bench/lib/detail-records.ts), ingested as NDJSON bodies of 10,000 records with
 * two requests in flight (bench/records-ingest.ts measures the ingest alone, one client in sequence too).
 * It prints every target of decisions §39's work: the start on the empty data directory, the ingest
 * rate (and the server's own CPU per record, steadier than the rate on a shared machine), server RSS
 * after the ingest, SIGTERM to exit, restart to /health, a page of 1,000 (cursor, `after`) at the
 * start and at 90 % depth and their ratio, a date-range filter, and RSS after the restart and paging.
 *
 *   pnpm exec tsx bench/embedded-scale.ts [N=10000000] [--keep]
 *
 * The server runs as `pnpm start` runs it, `node scripts/start.cjs`: the all-in-one bundle, built
 * before the first start when the sources changed, so no build is timed; one process, so signals
 * reach it directly. Its data directory is .bench-tmp/embedded-scale-<N>, removed at the end unless
 * --keep. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the server. Record i stops
 * at 2024-01-01 + i s, and its dr_sid is derived from i, so the record at any depth of the default
 * order (date_stop ascending) is known without asking.
 */
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../tests/harness/free-port';
import { BENCH_TOKEN, runBench, startAllInOne, untilAnswers, type BenchServer } from './lib/all-in-one-server';
import { callRecordLine, sidOf } from './lib/detail-records';
import { cpuSecondsOf, MiB, rssOf, table } from './lib/proc';

const ROOT = path.resolve(__dirname, '..');
// Plain JavaScript (scripts/start.cjs runs before anything is compiled); typed here by hand.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureBundle } = require('../scripts/start.cjs') as { ensureBundle(name: string): { file: string } };
const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000_000);
const KEEP = process.argv.includes('--keep');
const PER_REQUEST = 10_000;
const IN_FLIGHT = 2;
const T0 = Date.UTC(2024, 0, 1);

/** Full call records (20 fields, about 630 bytes of JSON), record i stopping at T0 + i s. */
const recordLine = (i: number) => callRecordLine(i, T0);

async function start(dataDir: string, port: number, storagePort: number): Promise<{ server: BenchServer; ms: number }> {
  const t = performance.now();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startAllInOne({ dataDir, port, storagePort, readyPath: '/health', everyMs: 20, nodeArgs });
  const ms = performance.now() - t;
  // /health answers once the gateway listens; the first partner (the bench's token) is created just after.
  await untilAnswers(server, '/core/v2/oauth/whoami', 20);
  return { server, ms };
}

async function stop(server: BenchServer): Promise<{ ms: number; code: number | null }> {
  const t = performance.now();
  server.child.kill('SIGTERM');
  const code = await server.exited;
  return { ms: performance.now() - t, code };
}

async function ingest(origin: string): Promise<number> {
  const t = performance.now();
  let next = 0;
  let stored = 0;
  const worker = async () => {
    while (next < N) {
      const from = next;
      const n = Math.min(PER_REQUEST, N - from);
      next += n;
      const lines: string[] = [];
      for (let i = from; i < from + n; i++) lines.push(recordLine(i));
      const res = await fetch(`${origin}/core/v2/calls/call_drs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/x-ndjson' },
        body: lines.join('\n'),
      });
      const report = (await res.json()) as { stored?: number; complete?: boolean };
      if (res.status !== 200 || report.stored !== n || !report.complete)
        throw new Error(`records ${from}..${from + n}: ${res.status} ${JSON.stringify(report).slice(0, 400)}`);
      stored += n;
      if (Math.floor(stored / 1_000_000) !== Math.floor((stored - n) / 1_000_000))
        process.stderr.write(`  ${stored} records, ${Math.round(stored / ((performance.now() - t) / 1000))}/s\n`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return stored / ((performance.now() - t) / 1000);
}

/** Median time (ms) of `runs` GETs of `url`; each must answer 200 with `expectItems` items. */
async function timed(origin: string, url: string, expectItems: number, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    const res = await fetch(`${origin}/core/v2${url}`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
    const body = (await res.json()) as { items?: unknown[] };
    times.push(performance.now() - t);
    if (res.status !== 200 || body.items?.length !== expectItems)
      throw new Error(`${url}: ${res.status}, ${body.items?.length} items`);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function main(): Promise<void> {
  const dataDir = path.join(ROOT, '.bench-tmp', `embedded-scale-${N}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const [port, storagePort] = [await freePort(), await freePort()];
  const rows: Array<Record<string, string | number>> = [];
  const row = (what: string, value: string | number, target = '') => {
    rows.push({ what, value, target });
    process.stderr.write(`${what}: ${value}\n`);
  };

  // Built (if the sources changed) before the clock starts: the starts below time the server only.
  ensureBundle('all-in-one');
  const first = await start(dataDir, port, storagePort);
  row('records', N.toLocaleString('en'));
  row('start on the empty data directory to /health (s)', (first.ms / 1000).toFixed(2), '≤ 3');
  const cpuBefore = cpuSecondsOf(first.server.child.pid!);
  row('ingest (records/s, through the API)', Math.round(await ingest(first.server.origin)), '≥ 20,000');
  // The server's own CPU per record: what the rate would be on a core of its own (the bench client and
  // anything else on the machine share the cores, so the rate above moves with the machine's load).
  const cpu = cpuSecondsOf(first.server.child.pid!) - cpuBefore;
  row('server CPU per record during the ingest (µs)', ((cpu / N) * 1e6).toFixed(1));
  row('server RSS after the ingest (MiB)', Math.round(rssOf(first.server.child.pid!) / MiB), '≤ 512');
  const stopped = await stop(first.server);
  row('SIGTERM to exit (s)', (stopped.ms / 1000).toFixed(2), '< 10, exit 0');
  row('exit code', String(stopped.code));
  const db = path.join(dataDir, 'records', 'store.sqlite');
  row('records database on disk (MiB)', Math.round(fs.statSync(db).size / MiB));

  const second = await start(dataDir, port, storagePort);
  row('restart to /health (s)', (second.ms / 1000).toFixed(2), '≤ 3');
  const origin = second.server.origin;
  const firstPage = await timed(origin, '/calls/call_drs?limit=1000', 1000);
  const deep = Math.floor(N * 0.9);
  const deepPage = await timed(origin, `/calls/call_drs?limit=1000&after=${sidOf(deep)}`, Math.min(1000, N - deep - 1));
  row('first page of 1,000 (ms, median of 5)', firstPage.toFixed(1));
  row('page of 1,000 at 90 % depth, after= (ms)', deepPage.toFixed(1));
  row('page at 90 % depth / first page', (deepPage / firstPage).toFixed(2), '≤ 1.5');
  const from = new Date(T0 + Math.floor(N / 2) * 1000).toISOString();
  const to = new Date(T0 + (Math.floor(N / 2) + 500) * 1000).toISOString();
  const range = await timed(
    origin,
    `/calls/call_drs?limit=1000&filter=${encodeURIComponent(`date_stop ge '${from}' and date_stop lt '${to}'`)}`,
    500,
  );
  row('date-range filter, 500 of N (ms)', range.toFixed(1));
  row('server RSS after restart and paging (MiB)', Math.round(rssOf(second.server.child.pid!) / MiB), '≤ 300');
  const end = await stop(second.server);
  row('second SIGTERM to exit (s)', (end.ms / 1000).toFixed(2));
  process.stdout.write(`\n${table(rows)}\n`);
  if (!KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
}

runBench(main);

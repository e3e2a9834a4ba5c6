/**
 * Bulk ingest of full detail records through the API (issue 42, part 2), beside the SQLite floor.
 *
 *   pnpm exec tsx bench/records-ingest.ts [N=1000000] [--distributed=N/10] [--messages=N/10]
 *     [--only=embedded|distributed|<mode>/<calls|messages>/<in flight>]
 *
 * One client POSTs NDJSON bodies of 10,000 full records (bench/lib/detail-records.ts: 20-field call
 * records of about 630 bytes, 22-field message records for the message route): once one body after
 * the other (sequential: each waits for the answer to the one before), once with two bodies in
 * flight, each on a fresh instance with an empty data directory. The all-in-one runs as `pnpm start`
 * does (scripts/start.cjs, its bundle built before the clock starts); the distributed mode runs every
 * service in its own process over a nats-server of its own, with the smaller N given. Each run prints
 * records/s and the server's CPU per record (user + system, from /proc: the all-in-one process, or
 * gateway + records service + nats-server), which moves less with the machine's load than the rate.
 * The next body is built while the current one is in flight, so the client's own work stays off the
 * clock as far as one client can keep it off.
 *
 * The baseline, in the same run: better-sqlite3 alone (same SQLite, WAL, synchronous=NORMAL) inserting
 * rows of the stored documents' size into a table with the same two indexes as the records service,
 * (partner_sid, dr_sid) unique and (partner_sid, date_stop, dr_sid), in transactions of one ingest
 * batch (the gateway cuts a batch at INGEST_BATCH_RECORDS records or INGEST_BATCH_BYTES of JSON,
 * whichever comes first: about 1,250 full call records). Printed beside each run: the rates' ratio,
 * and the ratio of CPU per record (baseline / ours: the share of our CPU that SQLite's own work would
 * need), which a loaded machine moves less.
 *
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles every server process (NODE_OPTIONS).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { INGEST_BATCH_BYTES, INGEST_BATCH_RECORDS } from '@patchbay/contracts';
import { START_SCRIPT, startPatchbay, type Mode, type PatchbayInstance } from '../tests/harness/patchbay';
import { callRecordLine, messageRecordLine, sidOf } from './lib/detail-records';
import { cpuSecondsOf, findInGroup, statFields, table } from './lib/proc';

const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const N_DISTRIBUTED = Number(option('distributed') ?? Math.max(10_000, Math.round(N / 10)));
const N_MESSAGES = Number(option('messages') ?? Math.max(10_000, Math.round(N / 10)));
/** A mode, or one run as `<mode>/<calls|messages>/<in flight>` (to profile it alone). */
const ONLY = option('only');
const PER_REQUEST = 10_000;

interface Route {
  name: 'calls' | 'messages';
  path: string;
  line: (i: number) => string;
}
const CALLS: Route = { name: 'calls', path: '/calls/call_drs', line: callRecordLine };
const MESSAGES: Route = { name: 'messages', path: '/sms/message_drs', line: messageRecordLine };

/** Every run: mode, route, records, bodies in flight. */
const PLAN: Array<[Mode, Route, number, number]> = [
  ['embedded', CALLS, N, 1],
  ['embedded', CALLS, N, 2],
  ['embedded', MESSAGES, N_MESSAGES, 1],
  ['embedded', MESSAGES, N_MESSAGES, 2],
  ['distributed', CALLS, N_DISTRIBUTED, 1],
  ['distributed', CALLS, N_DISTRIBUTED, 2],
  ['distributed', MESSAGES, Math.min(N_MESSAGES, N_DISTRIBUTED), 1],
];

const body = (route: Route, from: number, n: number): string => {
  const lines: string[] = new Array<string>(n);
  for (let k = 0; k < n; k++) lines[k] = route.line(from + k);
  return lines.join('\n');
};

/** Sends records 0..n-1 of `route` in bodies of PER_REQUEST, `inFlight` at a time; records/s. */
async function ingest(inst: PatchbayInstance, route: Route, n: number, inFlight: number): Promise<number> {
  let next = 0;
  let stored = 0;
  const t = performance.now();
  const worker = async () => {
    let from = next;
    let count = Math.min(PER_REQUEST, n - from);
    next += count;
    let text = body(route, from, count);
    while (count > 0) {
      const sending = fetch(`${inst.baseUrl}${route.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/x-ndjson' },
        body: text,
      });
      // The next body, built while this one is in flight.
      const nextFrom = next;
      const nextCount = Math.max(0, Math.min(PER_REQUEST, n - nextFrom));
      next += nextCount;
      const nextText = nextCount > 0 ? body(route, nextFrom, nextCount) : '';
      const res = await sending;
      const report = (await res.json()) as { stored?: number; complete?: boolean };
      if (res.status !== 200 || report.stored !== count || !report.complete)
        throw new Error(
          `${route.name} ${from}..${from + count}: ${res.status} ${JSON.stringify(report).slice(0, 400)}`,
        );
      stored += count;
      [from, count, text] = [nextFrom, nextCount, nextText];
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  if (stored !== n) throw new Error(`${route.name}: stored ${stored} of ${n}`);
  return n / ((performance.now() - t) / 1000);
}

/** The server's processes whose CPU is counted. */
function serverPids(inst: PatchbayInstance): number[] {
  if (inst.mode === 'embedded') return findInGroup(inst.pid, START_SCRIPT);
  // tsx's launcher and its node child both match a service's path; the launcher's CPU is near nothing.
  const own = Number(statFields('self')[2]);
  const nats = inst.natsUrl ? findInGroup(own, `${new URL(inst.natsUrl).port}`).filter(isNats) : [];
  return [
    ...findInGroup(inst.pid, 'services/gateway/src/main.ts'),
    ...findInGroup(inst.pid, 'services/records/src/main.ts'),
    ...nats,
  ];
}
const isNats = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nats-server');
  } catch {
    return false;
  }
};
const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);

/** Mean length (bytes) of the stored documents of a collection, read from the service's database file. */
function storedDocBytes(inst: PatchbayInstance, collection: string): number {
  const file = [path.join(inst.dataDir, 'records', 'store.sqlite'), path.join(inst.dataDir, 'store.sqlite')].find((f) =>
    fs.existsSync(f),
  );
  if (!file) return NaN;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT avg(length(doc)) AS n FROM (SELECT doc FROM "${collection}" LIMIT 20000)`).get() as
      { n: number } | undefined;
    return row?.n ?? NaN;
  } finally {
    db.close();
  }
}

interface Run {
  mode: Mode;
  route: Route;
  n: number;
  inFlight: number;
  rate: number;
  cpuUs: number;
  docBytes: number;
}

async function run(mode: Mode, route: Route, n: number, inFlight: number): Promise<Run> {
  const extra: Record<string, string> = { LOG_LEVEL: 'warn' };
  if (process.env.BENCH_SERVER_NODE_ARGS) extra.NODE_OPTIONS = process.env.BENCH_SERVER_NODE_ARGS;
  const inst = await startPatchbay(mode, extra);
  try {
    const pids = serverPids(inst);
    const before = cpuOf(pids);
    const rate = await ingest(inst, route, n, inFlight);
    const cpuUs = ((cpuOf(pids) - before) / n) * 1e6;
    const docBytes = storedDocBytes(inst, route.name === 'calls' ? 'call_drs' : 'message_drs');
    const result = { mode, route, n, inFlight, rate, cpuUs, docBytes };
    process.stderr.write(
      `${mode} ${route.name} ×${n} in flight ${inFlight}: ${Math.round(rate)}/s, ${cpuUs.toFixed(1)} µs CPU/record\n`,
    );
    return result;
  } finally {
    await inst.stop();
  }
}

/** Records per ingest batch of `route`: the gateway cuts at INGEST_BATCH_RECORDS or INGEST_BATCH_BYTES. */
function batchRecords(route: Route): number {
  let bytes = 0;
  for (let k = 0; k < INGEST_BATCH_RECORDS; k++) {
    bytes += Buffer.byteLength(route.line(k));
    if (bytes >= INGEST_BATCH_BYTES) return k + 1;
  }
  return INGEST_BATCH_RECORDS;
}

/**
 * better-sqlite3 alone: `n` rows of `docBytes`-byte JSON documents with the records service's two
 * indexes on plain columns, in transactions of `perTx` rows: rows/s of the inserts and commits, and
 * their CPU per row (this process's, user + system; the rows are built off both clocks).
 */
function baseline(n: number, docBytes: number, perTx: number): { rate: number; cpuUs: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-sqlite-'));
  const db = new Database(path.join(dir, 'base.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(
      'CREATE TABLE r (id INTEGER PRIMARY KEY, partner_sid TEXT, dr_sid TEXT, date_stop BLOB, doc TEXT NOT NULL)',
    );
    db.exec('CREATE UNIQUE INDEX r_sid ON r (partner_sid, dr_sid)');
    db.exec('CREATE INDEX r_stop ON r (partner_sid, date_stop, dr_sid)');
    const insert = db.prepare('INSERT INTO r (partner_sid, dr_sid, date_stop, doc) VALUES (?, ?, ?, ?)');
    const partner = '11111111-2222-4333-8444-555555555555';
    // Each row's document padded to the stored documents' mean size.
    const bare = JSON.stringify({ dr_sid: sidOf(0), partner_sid: partner, i: n, pad: '' }).length;
    const pad = 'x'.repeat(Math.max(0, Math.round(docBytes) - bare));
    let ms = 0;
    let cpuMicros = 0;
    for (let from = 0; from < n; from += perTx) {
      const rows: Array<[string, Buffer, string]> = [];
      for (let i = from; i < Math.min(n, from + perTx); i++) {
        const sid = sidOf(i);
        const stop = Buffer.from(`4${String(10_000_000_000_000_000 + i * 1000)}`, 'latin1');
        rows.push([sid, stop, JSON.stringify({ dr_sid: sid, partner_sid: partner, i, pad })]);
      }
      const t = performance.now();
      const cpu = process.cpuUsage();
      db.transaction(() => {
        for (const [sid, stop, doc] of rows) insert.run(partner, sid, stop, doc);
      }).immediate();
      const used = process.cpuUsage(cpu);
      cpuMicros += used.user + used.system;
      ms += performance.now() - t;
    }
    return { rate: n / (ms / 1000), cpuUs: cpuMicros / n };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = os.loadavg()[0];
  const runs: Run[] = [];
  for (const [mode, route, n, inFlight] of PLAN)
    if (!ONLY || ONLY === mode || ONLY === `${mode}/${route.name}/${inFlight}`)
      runs.push(await run(mode, route, n, inFlight));
  const bases = new Map<string, { rate: number; cpuUs: number }>();
  const baseOf = (r: Run) => {
    const perTx = batchRecords(r.route);
    const key = `${r.n} ${Math.round(r.docBytes)} ${perTx}`;
    if (!bases.has(key)) bases.set(key, baseline(r.n, r.docBytes, perTx));
    return bases.get(key) ?? { rate: NaN, cpuUs: NaN };
  };
  const rows = runs.map((r) => {
    const base = Number.isFinite(r.docBytes) ? baseOf(r) : { rate: NaN, cpuUs: NaN };
    const known = Number.isFinite(base.rate);
    return {
      mode: r.mode === 'embedded' ? 'all-in-one' : 'distributed',
      route: r.route.name,
      records: r.n.toLocaleString('en'),
      'in flight': r.inFlight,
      'records/s': Math.round(r.rate).toLocaleString('en'),
      'server CPU µs/record': r.cpuUs.toFixed(1),
      'stored doc (B)': Math.round(r.docBytes),
      'SQLite alone rows/s': known ? Math.round(base.rate).toLocaleString('en') : '-',
      'SQLite alone CPU µs/row': known ? base.cpuUs.toFixed(1) : '-',
      'rate ours / alone': known ? (r.rate / base.rate).toFixed(2) : '-',
      'CPU alone / ours': known ? (base.cpuUs / r.cpuUs).toFixed(2) : '-',
    };
  });
  process.stdout.write(
    `\nload average at start ${load.toFixed(1)}, at end ${os.loadavg()[0].toFixed(1)} (${os.cpus().length} cores); ` +
      `bodies of ${PER_REQUEST.toLocaleString('en')} records; records per batch (one bus message, one transaction): ` +
      `calls ${batchRecords(CALLS)}, messages ${batchRecords(MESSAGES)}\n` +
      `${table(rows)}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

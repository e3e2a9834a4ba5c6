/**
 * Detail-record pagination at scale: how long page 1 and page 1,000 take with `after`, with
 * `before`, and with `offset`, over 1,000,000 call records of one partner (three records per
 * timestamp, so the dr_sid tie-break is exercised), limit 1000.
 *
 * It runs the records service's own list handler (the code that answers svc.records.calls.list:
 * runList, CALL_RECORDS' list spec, the repo's indexes, serializeRecord) against the document-store port,
 * NeDB in memory — only the bus and HTTP hops are left out. The baseline rows run the same
 * request through a collection wrapper that drops the limit, which is what NeDB's own `find`
 * costs without the adapter's ordered index scan: match and sort every candidate, then slice.
 *
 *   pnpm exec tsx bench/records-pagination.ts [records=1000000] [runs=11]
 *
 * Loading is the slow part: NeDB inserts a million documents into its four index trees in about
 * six minutes on a 2-CPU machine (the baseline rows add about two more); pass a smaller count for
 * a quick look. Measured there (1,000,000 records, limit 1000, ms, page 1 / page 1,000):
 * after 8.5 / 12.9, before 15.5 / 13.7, after desc 14.1 / 13.5, after + filter 13.3 / 13.9,
 * offset 12.7 / 3192; NeDB's own plan for the after pages: 79,837 / 52,133.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { getHeapStatistics } from 'node:v8';
import { SqliteDocStore, createLogger, type Collection } from '@patchbay/platform';
import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import { ListGate } from '@patchbay/query';
import type { RecordDoc } from '../services/records/src/domain/record-docs';
import { CALL_RECORDS, recordDocFrom } from '../services/records/src/domain/record-kinds';
import { callRecordHandlers } from '../services/records/src/handlers/detail-records';
import { openRecordsRepo } from '../services/records/src/repo';

const HEAP_MB = 8192;
if (getHeapStatistics().heap_size_limit < (HEAP_MB / 2) * 1024 * 1024 && !process.env.BENCH_CHILD) {
  // A million NeDB documents and their indexes need more than the default heap.
  const res = spawnSync(
    process.execPath,
    [...process.execArgv, `--max-old-space-size=${HEAP_MB}`, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, BENCH_CHILD: '1' } },
  );
  process.exit(res.status ?? 1);
}

const N = Number(process.argv[2] ?? 1_000_000);
const RUNS = Number(process.argv[3] ?? 11);
const LIMIT = 1000;
const PARTNER = randomUUID();
const BASE = 'http://127.0.0.1:8080/core/v2/calls/call_drs';

/** The i-th record in list order: three records per second; sids ascending within a second. */
function makeRecords(n: number): RecordDoc[] {
  const t0 = Date.UTC(2024, 0, 1);
  const docs: RecordDoc[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const stop = new Date(t0 + Math.floor(i / 3) * 1000).toISOString();
    const start = new Date(t0 + Math.floor(i / 3) * 1000 - 42_000).toISOString();
    docs[i] = recordDocFrom(
      CALL_RECORDS,
      {
        dr_sid: randomUUID(),
        date_start: start,
        date_stop: stop,
        direction: i % 2 ? 'inbound' : 'outbound',
        price: '0.0025',
        rate: '0.0025',
        sipcause: '200',
        number_src: '+15012678830',
        number_dst: '15162065451',
        codec_src: 'pcmu',
        codec_dst: 'g722',
      },
      PARTNER,
      new Date(t0),
    );
  }
  // The list order: date_stop, then dr_sid.
  const stopOf = (d: RecordDoc) => (d.date_stop as Date).getTime();
  return docs.sort((a, b) => stopOf(a) - stopOf(b) || (a.dr_sid < b.dr_sid ? -1 : 1));
}

const ms = (t: bigint) => Number(t) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const logger = createLogger({ name: 'bench', level: 'silent' });
  const docs = new SqliteDocStore();
  const repo = await openRecordsRepo(docs);
  const settings = { cdrDefaultLimit: LIMIT, largeLists: { largeOver: 100, perPartner: 2, total: 8 } };
  const lists = new ListGate(settings.largeLists);
  /** The call-record list handler, reading `callDrs` (the repo's, or an instrumented one). */
  const listOf = (callDrs: Collection<RecordDoc>) =>
    callRecordHandlers({ repo: { ...repo, callDrs }, log: logger, settings, lists })[Subjects.records.callList];
  const list = listOf(repo.callDrs);

  let t = process.hrtime.bigint();
  const records = makeRecords(N);
  const made = ms(process.hrtime.bigint() - t);
  t = process.hrtime.bigint();
  for (let i = 0; i < N; i += 10_000) await repo.callDrs.insertMany(records.slice(i, i + 10_000));
  const loaded = ms(process.hrtime.bigint() - t);
  const heap = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  console.log(
    `${N.toLocaleString('en')} call records of one partner: built in ` +
      `${(made / 1000).toFixed(1)} s, inserted with their indexes in ` +
      `${(loaded / 1000).toFixed(1)} s (heap ${heap} MiB)`,
  );

  const sid = (i: number) => records[i].dr_sid;
  const request = (query: Record<string, string>): GatewayRequest => ({
    principal: { partner_sid: PARTNER, login: 'bench', scopes: ['calls.read'], token_sid: null },
    params: {},
    query,
    body: undefined,
    url: `${BASE}?${new URLSearchParams(query)}`,
  });
  const lastPage = Math.floor(N / LIMIT); // page 1,000 of 1,000 at one million records

  /** One call of the list handler (through `collection` when given); checks the page it gets; ms. */
  async function once(
    query: Record<string, string>,
    expectFirst: number,
    collection?: Collection<RecordDoc>,
  ): Promise<number> {
    const handler = collection ? listOf(collection) : list;
    const start = process.hrtime.bigint();
    const page = await handler(request(query));
    const took = ms(process.hrtime.bigint() - start);
    if (page.items.length !== LIMIT || page.items[0].dr_sid !== sid(expectFirst))
      throw new Error(`wrong page for ${JSON.stringify(query)}`);
    return took;
  }

  const limit = String(LIMIT);
  // Warm up the code paths (JIT) before anything is timed.
  for (let i = 0; i < 20; i++) await list(request({ limit, after: sid(i * 7) }));
  const rows: Array<[string, number, number]> = [];
  /** Medians of RUNS interleaved calls of page 1 and page N (so drift, GC included, hits both alike). */
  const row = async (
    mode: string,
    q1: Record<string, string>,
    first1: number,
    qN: Record<string, string>,
    firstN: number,
  ) => {
    const [a, b]: number[][] = [[], []];
    await once(q1, first1);
    await once(qN, firstN);
    for (let r = 0; r < RUNS; r++) {
      a.push(await once(q1, first1));
      b.push(await once(qN, firstN));
    }
    rows.push([mode, median(a), median(b)]);
  };
  await row(
    'after (asc)',
    { limit, after: sid(0) },
    1,
    { limit, after: sid((lastPage - 1) * LIMIT - 1) },
    (lastPage - 1) * LIMIT,
  );
  await row('before (asc)', { limit, before: sid(LIMIT) }, 0, { limit, before: sid(N - 1) }, N - 1 - LIMIT);
  await row(
    'after (desc)',
    { limit, order: 'date_stop desc', after: sid(N - 1) },
    N - 2,
    { limit, order: 'date_stop desc', after: sid(N - (lastPage - 1) * LIMIT) },
    N - (lastPage - 1) * LIMIT - 1,
  );
  // Half the records match: the walk visits about two records per item.
  const inbound = (from: number) => records.findIndex((r, i) => i > from && r.direction === 'inbound');
  const filter = 'direction eq "inbound"';
  await row(
    'after + filter',
    { limit, filter, after: sid(0) },
    inbound(0),
    { limit, filter, after: sid(N - 2 * LIMIT - 500) },
    inbound(N - 2 * LIMIT - 500),
  );
  await row(
    'offset',
    { limit, offset: '0' },
    0,
    { limit, offset: String((lastPage - 1) * LIMIT) },
    (lastPage - 1) * LIMIT,
  );

  console.log(
    `\nlimit ${LIMIT}; median of ${RUNS} interleaved runs after a warm-up; ` +
      `page 1 vs page ${lastPage.toLocaleString('en')} (the last)\n`,
  );
  console.log(`mode              page 1 (ms)   page ${lastPage.toLocaleString('en')} (ms)   ratio`);
  for (const [mode, a, b] of rows)
    console.log(
      `${mode.padEnd(18)}${a.toFixed(1).padStart(11)}${b.toFixed(1).padStart(18)}${(b / a).toFixed(2).padStart(8)}`,
    );

  // Baseline: the same cursor requests with NeDB's own plan (every candidate matched and sorted).
  const unplanned = {
    ...repo.callDrs,
    find: async (
      filter: Record<string, unknown>,
      opts: { sort?: Record<string, 1 | -1>; skip?: number; limit?: number; projection?: Record<string, 0 | 1> } = {},
    ) => {
      const { limit: l, skip = 0, ...rest } = opts;
      const all = await repo.callDrs.find(filter, rest);
      return l ? all.slice(skip, skip + l) : all.slice(skip);
    },
    findOne: repo.callDrs.findOne.bind(repo.callDrs),
    countDocuments: repo.callDrs.countDocuments.bind(repo.callDrs),
  } as unknown as Collection<RecordDoc>;
  const b1 = await once({ limit, after: sid(0) }, 1, unplanned);
  const bN = await once({ limit, after: sid((lastPage - 1) * LIMIT - 1) }, (lastPage - 1) * LIMIT, unplanned);
  console.log(
    `\nbaseline, NeDB's own plan (no ordered index scan), after (asc), one ` +
      `run each: page 1 ${b1.toFixed(0)} ms, page ` +
      `${lastPage.toLocaleString('en')} ${bN.toFixed(0)} ms`,
  );
  await docs.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

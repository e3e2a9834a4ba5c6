/**
 * Benchmark: listing endpoints filtered by `addresses.ip eq "<ip>"` against the unfiltered list,
 * for one partner holding 10,000 endpoints. The filter should be served by the multikey
 * `addresses.ip` index, so its list time stays small while the unfiltered list (which counts and
 * sorts every endpoint of the partner) grows with the partner. A filter on an unindexed field is
 * timed too, for contrast: it must visit every endpoint of the partner.
 *
 * Runs the real endpoint service on the in-process bus, timing `svc.endpoint.list` requests as the
 * gateway sends them (HTTP is left out: it adds the same constant to every row). The store is the
 * embedded one (NeDB, in memory), or MongoDB when MONGODB_URL is set (database
 * `patchbay_endpoint_bench`, emptied before and after).
 *
 *   pnpm exec tsx bench/endpoints-filter.ts [--endpoints 10000] [--runs 30]
 *
 * A benchmark, not a test: it prints numbers and exits 0.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Subjects, unwrapReply, type ListEnvelope } from '../packages/contracts/src';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type DocStore,
} from '../packages/platform/src';
import { MongoDocStore } from '../packages/platform/src/doc-store/mongo-doc-store';
import { startEndpointService } from '../services/endpoint/src/service';
import { DEFAULT_ENDPOINT_SETTINGS } from '../services/endpoint/src/config';
import { openEndpointRepo } from '../services/endpoint/src/repo';
import { toDoc } from '../services/endpoint/src/domain/endpoint-doc';
import { buildEndpoint } from '../services/endpoint/src/domain/endpoint-state';
import { generateValues } from '../services/endpoint/src/domain/generate';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

const ENDPOINTS = arg('endpoints', 10_000);
const RUNS = arg('runs', 30);
const WARMUP = 3;

const unusedBlobs: BlobStore = {
  put: async () => {
    throw new Error('unused');
  },
  get: async () => {
    throw new Error('unused');
  },
  stat: async () => {
    throw new Error('unused');
  },
  delete: async () => {
    throw new Error('unused');
  },
};

async function openStore(): Promise<{ docs: DocStore; label: string }> {
  const url = process.env.MONGODB_URL;
  if (url)
    return {
      docs: await MongoDocStore.connect({ url, dbName: 'patchbay_endpoint_bench' }),
      label: 'MongoDB (MONGODB_URL)',
    };
  return { docs: new SqliteDocStore(), label: 'embedded (SQLite, in memory)' };
}

const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function main(): Promise<void> {
  const { docs, label } = await openStore();
  const repo = await openEndpointRepo(docs);
  await repo.endpoints.deleteMany({});
  const partnerSid = randomUUID();
  const logger = createLogger({ name: 'bench', level: 'silent' });
  const hub = MemoryBus.hub();
  const service = await startEndpointService(
    { bus: new MemoryBus(hub), docs, blobs: unusedBlobs, logger, metrics: createMetricsRegistry('bench') },
    { ...DEFAULT_ENDPOINT_SETTINGS, busTimeoutMs: 60_000 },
  );
  const bus = new MemoryBus(hub);

  const loadStart = performance.now();
  const start = Date.now();
  const batch: ReturnType<typeof toDoc>[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const state = buildEndpoint(
      {
        type: 'third_party',
        name: `pbx-${i}`,
        out_sip_username: `user-${i}`,
        addresses: [
          { ip: ip(i), port: 5060 },
          { ip: ip(i + ENDPOINTS), port: 5080, direction: 'outbound' },
        ],
      },
      generateValues('third_party', ''),
    );
    batch.push(
      toDoc(state, {
        endpoint_sid: randomUUID(),
        partner_sid: partnerSid,
        date_created: new Date(start + i),
        revision: 0,
      }),
    );
    if (batch.length === 1000) await repo.endpoints.insertMany(batch.splice(0));
  }
  await repo.endpoints.insertMany(batch.splice(0));
  const loadMs = performance.now() - loadStart;

  const target = Math.floor(ENDPOINTS * 0.7);
  const list = async (query: Record<string, string>) =>
    unwrapReply<ListEnvelope<unknown>>(
      await bus.request(
        Subjects.endpoint.list,
        {
          principal: { partner_sid: partnerSid, login: 'bench', scopes: ['endpoints.manage'], token_sid: null },
          params: {},
          query,
          body: undefined,
          url: 'http://127.0.0.1/core/v2/endpoints',
        },
        { timeoutMs: 60_000 },
      ),
    );

  const cases: Array<{ name: string; query: Record<string, string> }> = [
    { name: 'unfiltered (limit=10)', query: {} },
    { name: `filter=addresses.ip eq "${ip(target)}" (indexed)`, query: { filter: `addresses.ip eq "${ip(target)}"` } },
    {
      name: `filter=addresses.ip eq "${ip(target + ENDPOINTS)}" (2nd address)`,
      query: { filter: `addresses.ip eq "${ip(target + ENDPOINTS)}"` },
    },
    {
      name: `filter=out_sip_username eq "user-${target}" (no index)`,
      query: { filter: `out_sip_username eq "user-${target}"` },
    },
  ];
  const results: Array<{ name: string; median: number; p95: number; items: number; total: number | null }> = [];
  for (const c of cases) {
    let last: ListEnvelope<unknown> | undefined;
    for (let i = 0; i < WARMUP; i++) last = await list(c.query);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      last = await list(c.query);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    results.push({
      name: c.name,
      median: times[Math.floor(times.length / 2)],
      p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
      items: last!.count,
      total: last!.total,
    });
  }

  const width = Math.max(...results.map((r) => r.name.length));
  const out = [
    `endpoints-filter: ${ENDPOINTS} endpoints of one partner (2 addresses ` +
      `each), store ${label}; loaded in ${loadMs.toFixed(0)} ms`,
    `${RUNS} timed runs per row after ${WARMUP} warm-up runs; time of one ` +
      `svc.endpoint.list request (query, count, serialize)`,
    '',
    `${'query'.padEnd(width)}  ${'median ms'.padStart(9)}  ` +
      `${'p95 ms'.padStart(8)}  ${'items'.padStart(5)}  ` +
      `${'total'.padStart(6)}`,
    ...results.map(
      (r) =>
        `${r.name.padEnd(width)}  ${r.median.toFixed(2).padStart(9)}  ` +
        `${r.p95.toFixed(2).padStart(8)}  ${String(r.items).padStart(5)}  ` +
        `${String(r.total).padStart(6)}`,
    ),
    '',
    `ratio filtered (addresses.ip, indexed) / unfiltered, medians: ` +
      `${(results[1].median / results[0].median).toFixed(3)}`,
    `ratio unindexed filter / unfiltered, medians:                 ` +
      `${(results[3].median / results[0].median).toFixed(3)}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);

  await service.stop();
  await bus.close();
  await repo.endpoints.deleteMany({});
  await docs.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`endpoints-filter failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

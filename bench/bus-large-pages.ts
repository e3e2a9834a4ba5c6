/**
 * Pages of 1,000 call records over the bus: `GET /calls/call_drs?limit=1000` in the distributed
 * mode (every service its own process, a nats-server with its default 1 MiB max_payload, so each
 * page crosses the bus in chunks) against the named baseline, the all-in-one measured in the same
 * run (in-process bus, no limit: one message, no chunks). The target (decisions §37): a ratio of at most 1.5.
 *
 * Two shapes of page: typical records (about 1.4 KB each, a 1.4 MB page: two chunks) and records
 * with every field at its longest (4,096-character user_data and stir_identity: about 15 MB, 16
 * chunks). Both instances hold the same 3,000 records; the rounds alternate between them so both
 * see the same machine, and each row is the median of `runs` requests per mode (first page and the
 * next two pages through `pagination.next`, in turn).
 *
 *   pnpm exec tsx bench/bus-large-pages.ts [runs=21]
 *
 * A benchmark, not a test: it prints numbers and exits 0.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startPatchbay, type PatchbayInstance } from '../tests/harness/patchbay';
import { MiB, table } from './lib/proc';

const RUNS = Number(process.argv[2] ?? 21);
const RECORDS = 3000;

const at = (i: number, s = 0) => new Date(Date.UTC(2025, 0, 1) + i * 60_000 + s * 1000).toISOString();

function typical(i: number): Record<string, unknown> {
  return {
    dr_sid: randomUUID(),
    date_start: at(i),
    date_stop: at(i, 42),
    date_talk: at(i, 3),
    direction: i % 2 ? 'inbound' : 'outbound',
    price: '0.0025',
    rate: '0.0025',
    sipcause: '200',
    number_src: '+15012678830',
    number_dst: '15162065451',
    codec_src: 'pcmu',
    codec_dst: 'g722',
    ip_src: '198.51.100.18',
    ip_dst: '10.222.2.197:5060',
    sipcallid_src: '428ac5df4582bea6@198.51.100.24',
    endpoint_sid_src: randomUUID(),
    endpoint_sid_dst: randomUUID(),
    user_data: `campaign=${i % 17}`,
  };
}

function longest(i: number): Record<string, unknown> {
  return {
    ...typical(i),
    identity: `<sip:+15550002000@198.51.100.7>;${'i'.repeat(990)}`,
    stir_identity: 's'.repeat(4096),
    user_data: `${i} ${'u'.repeat(4090)}`,
  };
}

async function ingest(inst: PatchbayInstance, token: string, records: unknown[]): Promise<void> {
  for (let i = 0; i < records.length; i += 500) {
    const res = await fetch(`${inst.baseUrl}/calls/call_drs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: records
        .slice(i, i + 500)
        .map((r) => JSON.stringify(r))
        .join('\n'),
    });
    if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`);
  }
}

/** A partner of its own per shape, so each list holds only that shape's records. */
async function partnerToken(inst: PatchbayInstance, name: string): Promise<string> {
  const admin = { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' };
  const login = `${name}${Date.now().toString(36)}`;
  const made = await fetch(`${inst.baseUrl}/partners`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name, login, password: 'bench-password-1' }),
  });
  if (!made.ok) throw new Error(`partner: ${made.status}`);
  const tok = await fetch(`${inst.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: login, password: 'bench-password-1' }),
  });
  return ((await tok.json()) as { access_token: string }).access_token;
}

/** Times one page request; returns ms, bytes and the next page's URL. */
async function page(inst: PatchbayInstance, token: string, url: string) {
  const t = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as { count: number; pagination?: { next?: string } };
  if (body.count !== 1000) throw new Error(`page of ${body.count}`);
  return { ms, bytes: Buffer.byteLength(text), next: body.pagination?.next };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  // The baseline as users run it: the all-in-one with its in-process bus and no limit of its own.
  const embedded = await startPatchbay('embedded', { LOG_LEVEL: 'warn', BUS_MAX_PAYLOAD: '0' });
  const distributed = await startPatchbay('distributed', { LOG_LEVEL: 'warn' });
  const modes = { embedded, distributed };
  try {
    const rows: Array<Record<string, string | number>> = [];
    for (const [shape, make] of [
      ['typical records', typical],
      ['longest records', longest],
    ] as const) {
      const records = Array.from({ length: RECORDS }, (_, i) => make(i));
      const tokens: Record<string, string> = {};
      for (const [mode, inst] of Object.entries(modes)) {
        tokens[mode] = await partnerToken(inst, shape.split(' ')[0]);
        await ingest(inst, tokens[mode], records);
      }
      const times: Record<string, number[]> = { embedded: [], distributed: [] };
      let bytes = 0;
      const urls: Record<string, string | undefined> = {};
      for (let run = -2; run < RUNS; run++) {
        for (const [mode, inst] of Object.entries(modes)) {
          // First page, then two more through pagination.next, then around again.
          const url = run % 3 === 0 || !urls[mode] ? `${inst.baseUrl}/calls/call_drs?limit=1000` : urls[mode]!;
          const r = await page(inst, tokens[mode], url);
          urls[mode] = r.next;
          bytes = r.bytes;
          if (run >= 0) times[mode].push(r.ms); // two warm-up rounds
        }
      }
      const e = median(times.embedded);
      const d = median(times.distributed);
      rows.push({
        page: `${shape}, limit=1000`,
        'page size': `${(bytes / MiB).toFixed(2)} MiB`,
        'all-in-one (baseline) ms': e.toFixed(1),
        'distributed ms': d.toFixed(1),
        'ratio vs all-in-one': (d / e).toFixed(2),
      });
    }
    process.stdout.write(`${table(rows)}\n(median of ${RUNS} requests per mode, alternating)\n`);
  } finally {
    await Promise.all([embedded.stop(), distributed.stop()]);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});

/**
 * One partner floods the records service with concurrent pages of 1,000 call records (issue 47,
 * item 1): what every answer is, what another partner's small lists get meanwhile, and the records
 * service's resident memory before, at its peak and after the burst. Distributed (every service its
 * own process, a nats-server with its default 1 MiB max_payload, so each page crosses the bus in
 * chunks) or embedded (the all-in-one: the whole process's memory).
 *
 *   pnpm exec tsx bench/records-flood.ts [concurrency=240] [mode=distributed] [records=3000]
 *
 * A benchmark, not a test: it prints numbers and exits 0.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import { startPatchbay, type Mode, type PatchbayInstance } from '../tests/harness/patchbay';
import { findInGroup, MiB, rssOf, samplePeak, table } from './lib/proc';

const CONCURRENCY = Number(process.argv[2] ?? 240);
const MODE = (process.argv[3] ?? 'distributed') as Mode;
const RECORDS = Number(process.argv[4] ?? 3000);
// One connection per request, as that many clients would have.
const agent = new http.Agent({ keepAlive: false });

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
/** About 1.4 KB on the wire: a 1,000-record page is about 1.4 MB. */
const record = (i: number) => ({
  dr_sid: randomUUID(),
  date_start: at(i),
  date_stop: at(i + 1),
  price: '0.0025',
  number_src: '+15012678830',
  number_dst: '15162065451',
  user_data: `flood ${i} ${'u'.repeat(900)}`,
});

async function partnerToken(inst: PatchbayInstance, name: string): Promise<string> {
  const login = `${name}${Date.now().toString(36)}`;
  const made = await fetch(`${inst.baseUrl}/partners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
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

/** One GET, its body read and dropped; status 0 when the connection failed. */
function get(url: string, token: string): Promise<{ status: number; ms: number; retryAfter: string | null }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => {
        const ra = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - t, retryAfter: ra ?? null });
      });
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t, retryAfter: null }));
  });
}

const tally = (xs: Array<{ status: number; retryAfter: string | null }>) => {
  const out = new Map<string, number>();
  for (const x of xs) {
    const k = `${x.status}${x.status >= 429 && x.retryAfter ? ' +RA' : ''}`;
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return [...out].map(([k, n]) => `${k}: ${n}`).join(', ');
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? 0;

async function main(): Promise<void> {
  const inst = await startPatchbay(MODE, { LOG_LEVEL: 'warn' });
  try {
    const [a, b] = [await partnerToken(inst, 'flooder'), await partnerToken(inst, 'bystander')];
    for (let i = 0; i < RECORDS; i += 500) {
      const body = Array.from({ length: Math.min(500, RECORDS - i) }, (_, k) => JSON.stringify(record(i + k)));
      const res = await fetch(`${inst.baseUrl}/calls/call_drs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a}`, 'content-type': 'application/x-ndjson' },
        body: body.join('\n'),
      });
      if (!res.ok) throw new Error(`ingest: ${res.status}`);
    }
    await fetch(`${inst.baseUrl}/calls/call_drs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b}`, 'content-type': 'application/json' },
      body: JSON.stringify([record(0)]),
    });
    const pid = () => (MODE === 'distributed' ? findInGroup(inst.pid, 'services/records/src/main.ts') : [inst.pid]);
    const page = `${inst.baseUrl}/calls/call_drs?limit=1000`;
    // Warm: a few pages one at a time, so "before" is the service as it runs, not as it started.
    for (let i = 0; i < 3; i++) await get(page, a);
    await sleep(2000);
    const before = Math.max(...pid().map(rssOf));
    const peak = samplePeak(pid, 50);
    let flooding = true;
    const bystander: Array<{ status: number; ms: number; retryAfter: string | null }> = [];
    const small = (async () => {
      while (flooding) {
        bystander.push(await get(`${inst.baseUrl}/calls/call_drs?limit=10`, b));
        await sleep(100);
      }
    })();
    const t0 = performance.now();
    const flood = await Promise.all(Array.from({ length: CONCURRENCY }, () => get(page, a)));
    const wall = performance.now() - t0;
    flooding = false;
    await small;
    const top = peak.stop();
    const after: Record<string, string> = {};
    let waited = 0;
    for (const s of [2, 10, 30]) {
      await sleep((s - waited) * 1000);
      waited = s;
      after[`${s} s after`] = `${(Math.max(...pid().map(rssOf)) / MiB).toFixed(0)} MiB`;
    }
    const afterSmall = await Promise.all(
      Array.from({ length: 5 }, () => get(`${inst.baseUrl}/calls/call_drs?limit=10`, b)),
    );
    process.stdout.write(
      `${table([
        {
          mode: MODE,
          flood: `${CONCURRENCY} x limit=1000`,
          'flood answers': tally(flood),
          'flood p50/p95/max ms': `${pct(
            flood.map((x) => x.ms),
            0.5,
          ).toFixed(0)}/${pct(
            flood.map((x) => x.ms),
            0.95,
          ).toFixed(0)}/${pct(
            flood.map((x) => x.ms),
            1,
          ).toFixed(0)}`,
          'flood wall s': (wall / 1000).toFixed(1),
          'other partner during': tally(bystander),
          'other p95 ms': pct(
            bystander.map((x) => x.ms),
            0.95,
          ).toFixed(0),
          'other after': tally(afterSmall),
        },
      ])}\n${table([
        {
          'records RSS before': `${(before / MiB).toFixed(0)} MiB`,
          peak: `${(top / MiB).toFixed(0)} MiB`,
          ...after,
        },
      ])}\n`,
    );
  } finally {
    await inst.stop();
    agent.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});

/**
 * Bulk export of call records (issue 43): 1,000,000 call records exported as gzipped NDJSON with a
 * filter, on the all-in-one (or distributed): how long from the POST to `done`, the server's peak
 * resident memory meanwhile (the all-in-one process; distributed: the records service), and a check
 * that the file's records equal, in order, what walking the cursor listing with the same filter
 * returns. The baseline, measured in the same run, is that walk itself: what an operator does today
 * with `after=` cursors, page by page (limit 1000), as the publisher's downloader does.
 *
 *   pnpm exec tsx bench/records-export.ts [records=1000000] [mode=embedded] [restart=yes]
 *
 * With `restart` (the default) the instance is killed and started again between the ingest and the
 * export, so the memory measured is what an export takes in a process that has not just ingested a
 * million records (the ingest's own heap growth is bench/embedded-scale.ts's subject).
 *
 * Both sides are hashed as they stream (SHA-256 over the NDJSON lines), never held in memory. A
 * benchmark, not a test: it prints numbers, and exits 1 only when the file and the walk differ.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { startPatchbay, type Mode } from '../tests/harness/patchbay';
import { findInGroup, MiB, rssOf, samplePeak, table } from './lib/proc';

const RECORDS = Number(process.argv[2] ?? 1_000_000);
const MODE = (process.argv[3] ?? 'embedded') as Mode;
const RESTART = (process.argv[4] ?? 'yes') !== 'no';
const PER_REQUEST = 50_000;
const FILTER = process.env.EXPORT_FILTER ?? `date_stop ge "2025-01-01T00:00:00Z" and price ge 0`;

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 1000).toISOString();
/** A plausible call record: three share each instant, so the order's tie-breaker (dr_sid) matters. */
const record = (i: number) => ({
  dr_sid: randomUUID(),
  date_start: new Date(Date.parse(at(i)) - 95_000).toISOString(),
  date_stop: at(i),
  direction: i % 3 === 0 ? 'inbound' : 'outbound',
  number_src: `+1501${String(i).padStart(7, '0')}`,
  number_dst: `1516${String(i * 7).padStart(7, '0')}`,
  price: `0.00${i % 10}`,
  rate: '0.005',
  sipcause: i % 7 === 0 ? '486' : '200',
  user_data: `bench ${i}`,
});

const secs = (ms: number) => (ms / 1000).toFixed(1);

async function main(): Promise<void> {
  let inst = await startPatchbay(MODE, { LOG_LEVEL: 'warn', CDR_DEFAULT_LIMIT: '1000' });
  const auth = { authorization: `Bearer ${inst.token}` };
  try {
    let t = performance.now();
    for (let from = 0; from < RECORDS; from += PER_REQUEST) {
      const n = Math.min(PER_REQUEST, RECORDS - from);
      const body = Array.from({ length: n }, (_, i) => JSON.stringify(record(from + i))).join('\n');
      const res = await fetch(`${inst.baseUrl}/calls/call_drs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
        body: gzipSync(body),
      });
      const report = (await res.json()) as { stored: number };
      if (report.stored !== n) throw new Error(`ingest: ${res.status} ${JSON.stringify(report)}`);
    }
    const ingestMs = performance.now() - t;
    console.log(`ingested ${RECORDS} records in ${secs(ingestMs)} s`);
    if (RESTART) {
      await inst.kill();
      inst = await inst.restart();
    }

    const pids = () => (MODE === 'distributed' ? findInGroup(inst.pid, 'services/records/src/main.ts') : [inst.pid]);
    const idleRss = Math.max(...pids().map(rssOf));

    // The export: POST to done, the server's memory sampled meanwhile.
    const peak = samplePeak(pids, 50);
    t = performance.now();
    const made = await fetch(`${inst.baseUrl}/calls/call_drs/exports`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ filter: FILTER, format: 'ndjson', compression: 'gzip' }),
    });
    const created = (await made.json()) as { export_sid: string };
    let ex: { status: string; file_sid: string; record_count: number; bytes: number; error: string | null };
    for (;;) {
      const r = await fetch(`${inst.baseUrl}/calls/call_drs/exports/${created.export_sid}`, { headers: auth });
      ex = (await r.json()) as typeof ex;
      if (['done', 'failed', 'cancelled'].includes(ex.status)) break;
      await new Promise((r2) => setTimeout(r2, 100));
    }
    const exportMs = performance.now() - t;
    const peakRss = peak.stop();
    if (ex.status !== 'done') throw new Error(`export ${ex.status}: ${ex.error}`);

    // The file, streamed: gunzipped, hashed line by line.
    const file = await fetch(`${inst.baseUrl}/storage/files/${ex.file_sid}/data`, { headers: auth });
    if (!file.ok || !file.body) throw new Error(`download: ${file.status}`);
    const fileHash = createHash('sha256');
    let fileLines = 0;
    // why: fetch's web stream is a ReadableStream of Uint8Array; Readable.fromWeb takes exactly that.
    const lines = createInterface({
      input: Readable.fromWeb(file.body as import('node:stream/web').ReadableStream).pipe(createGunzip()),
    });
    for await (const line of lines) {
      fileHash.update(`${line}\n`);
      fileLines++;
    }

    // The baseline: walking the cursor listing with the same filter, each record hashed as the list returns it.
    const walkHash = createHash('sha256');
    let walked = 0;
    t = performance.now();
    let after: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ limit: '1000', order: 'date_stop', filter: FILTER, ...(after ? { after } : {}) });
      const r = await fetch(`${inst.baseUrl}/calls/call_drs?${q}`, { headers: auth });
      const page = (await r.json()) as { items: Array<{ dr_sid: string }>; pagination: { next?: string } };
      for (const item of page.items) walkHash.update(`${JSON.stringify(item)}\n`);
      walked += page.items.length;
      if (page.items.length === 0 || !page.pagination.next) break;
      after = page.items[page.items.length - 1].dr_sid;
    }
    const walkMs = performance.now() - t;

    const same = fileLines === walked && fileHash.digest('hex') === walkHash.digest('hex');
    console.log(
      table([
        {
          what: `export ${ex.record_count} records, NDJSON gzip (${MODE})`,
          seconds: secs(exportMs),
          'records/s': Math.round(ex.record_count / (exportMs / 1000)),
          'file MiB': (ex.bytes / MiB).toFixed(1),
          'peak RSS MiB': (peakRss / MiB).toFixed(0),
        },
        {
          what: `baseline: cursor walk, limit 1000 (${walked} records)`,
          seconds: secs(walkMs),
          'records/s': Math.round(walked / (walkMs / 1000)),
          'file MiB': '-',
          'peak RSS MiB': '-',
        },
      ]),
    );
    const restarted = RESTART ? ' (restarted after the ingest)' : '';
    console.log(`server RSS before the export: ${(idleRss / MiB).toFixed(0)} MiB${restarted}`);
    const verdict = same ? 'identical in order (SHA-256 of the lines)' : 'DIFFERENT';
    console.log(`file vs cursor walk: ${fileLines} vs ${walked} records, ${verdict}`);
    if (!same) process.exitCode = 1;
  } finally {
    await inst.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

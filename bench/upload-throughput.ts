/**
 * Upload throughput through Patchbay (raw octet-stream upload → gateway → blob store) against a
 * baseline: a bare Node HTTP server piping the same body to a file on disk — as is, and fsynced
 * before answering (Patchbay fsyncs every upload, so that is the like-for-like row). Also the gateway's peak
 * resident memory during a 1 GiB upload (distributed mode, so the gateway is its own process).
 *
 *   pnpm exec tsx bench/upload-throughput.ts [sizeMiB=256] [bigMiB=1024]
 *   BENCH_TRACING=on pnpm exec tsx bench/upload-throughput.ts …
 *
 * With BENCH_TRACING=on a second Patchbay, tracing on (lib/tracing-switch.ts), uploads in the same
 * rounds as the untraced one (alternating), and the overhead is printed: traced over untraced.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { defaultContainer } from '../tests/harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../tests/harness/patchbay';
import { MiB, findInGroup, samplePeak, table } from './lib/proc';
import { tracingSwitch } from './lib/tracing-switch';

const SIZE = Number(process.argv[2] ?? 256) * MiB;
const BIG = Number(process.argv[3] ?? 1024) * MiB;
const CHUNK = Buffer.alloc(MiB, 0x5a);

/** A body of `size` bytes generated on the fly (nothing held in memory). */
function body(size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(CHUNK.length, size - sent);
      sent += n;
      this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    },
  });
}

async function post(
  url: string,
  size: number,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(size) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    pipeline(body(size), req).catch(reject);
  });
  return { status, ms: performance.now() - started };
}

/**
 * The baseline server: the body piped to a new file, removed again after the answer. With `sync`,
 * the file is fsynced before the answer, as Patchbay's blob store does for an upload.
 */
async function baseline(dir: string, sync: boolean): Promise<number> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, `b-${Date.now()}-${Math.random()}`);
    pipeline(req, fs.createWriteStream(file, { flush: sync }))
      .then(
        () => {
          res.writeHead(201);
          res.end();
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      )
      .finally(() => fs.rmSync(file, { force: true }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const runs = [] as number[];
  for (let i = 0; i < 3; i++) runs.push((await post(`http://127.0.0.1:${port}/`, SIZE, {})).ms);
  server.close();
  return Math.min(...runs);
}

const benchContainers = new Map<PatchbayInstance, string>();

/** A container with room for every run (the default one holds 1 GiB), one per instance. */
async function container(inst: PatchbayInstance): Promise<string> {
  let benchContainer = benchContainers.get(inst);
  if (!benchContainer) {
    const res = await fetch(`${inst.baseUrl}/storage/containers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', quota_bytes: 64 * 1024 * MiB, quota_files: 1000 }),
    });
    benchContainer = ((await res.json()) as { container_sid: string }).container_sid;
    benchContainers.set(inst, benchContainer);
  }
  return benchContainer;
}

async function patchbay(inst: PatchbayInstance, size: number): Promise<number> {
  const auth = { authorization: `Bearer ${inst.token}` };
  const url = `${inst.baseUrl}/storage/files?container_sid=${await container(inst)}&name=bench.bin`;
  const r = await post(url, size, auth);
  if (r.status !== 201) throw new Error(`upload failed: ${r.status}`);
  return r.ms;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-'));
  const baseMs = await baseline(tmp, false);
  const syncedMs = await baseline(tmp, true);
  const tracing = await tracingSwitch();
  const inst = await startPatchbay('distributed', { LOG_LEVEL: 'warn' });
  const traced = tracing.on ? await startPatchbay('distributed', { LOG_LEVEL: 'warn', ...tracing.env }) : undefined;
  try {
    // Wait for the default container, then measure the best of three (alternating with the traced one).
    await defaultContainer(inst, 60_000);
    if (traced) await defaultContainer(traced, 60_000);
    const runs = [] as number[];
    const tracedRuns = [] as number[];
    for (let i = 0; i < 3; i++) {
      runs.push(await patchbay(inst, SIZE));
      if (traced) tracedRuns.push(await patchbay(traced, SIZE));
    }
    const pbMs = Math.min(...runs);
    const tracedMs = Math.min(...tracedRuns);
    const pgid = inst.pid;
    const gatewayPids = () => findInGroup(pgid, 'services/gateway/src/main.ts');
    const sampler = samplePeak(gatewayPids);
    const bigMs = await patchbay(inst, BIG);
    const peak = sampler.stop();
    const mbps = (bytes: number, ms: number) => (bytes / MiB / (ms / 1000)).toFixed(1);
    console.log(`\nUpload throughput, ${SIZE / MiB} MiB body (best of 3), ${os.cpus().length} cores\n`);
    console.log(
      table([
        {
          path: 'baseline: bare Node HTTP → file',
          'MiB/s': mbps(SIZE, baseMs),
          ratio: '1.00',
          'ratio to fsynced': (syncedMs / baseMs).toFixed(2),
        },
        {
          path: 'same, file fsynced before the answer',
          'MiB/s': mbps(SIZE, syncedMs),
          ratio: (baseMs / syncedMs).toFixed(2),
          'ratio to fsynced': '1.00',
        },
        {
          path: 'Patchbay raw upload (distributed, fsynced)',
          'MiB/s': mbps(SIZE, pbMs),
          ratio: (baseMs / pbMs).toFixed(2),
          'ratio to fsynced': (syncedMs / pbMs).toFixed(2),
        },
        ...(traced
          ? [
              {
                path: 'same, tracing on',
                'MiB/s': mbps(SIZE, tracedMs),
                ratio: (baseMs / tracedMs).toFixed(2),
                'ratio to fsynced': (syncedMs / tracedMs).toFixed(2),
              },
            ]
          : []),
      ]),
    );
    if (traced) console.log(`\ntracing overhead (traced / untraced, best of 3 each): ${(pbMs / tracedMs).toFixed(2)}`);
    console.log(
      `\n${BIG / MiB} MiB upload: ${mbps(BIG, bigMs)} MiB/s; gateway peak ` +
        `RSS ${(peak / MiB).toFixed(0)} MiB (target < 200 MiB)`,
    );
    console.log(tracing.summary());
  } finally {
    await inst.stop();
    await traced?.stop();
    await tracing.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

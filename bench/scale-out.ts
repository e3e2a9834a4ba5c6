/**
 * Scale-out of the two services devops scale on their own, in one run, with the distributed
 * launcher over a real nats-server (2 file-servers, 3 transcoders, each its own process):
 *  - transcode throughput: upload-time jobs (a 60 s tone → mp4/AAC, the costliest target) with 3
 *    transcoder replicas, then with 1 (the other two stopped with SIGTERM, as a scale-down does);
 *  - download throughput: full downloads of a published 32 MiB file sent to 1 file-server, then
 *    spread over both.
 * Each transcoder runs one ffmpeg at a time (TRANSCODER_CONCURRENCY=1), so replicas are the only
 * parallelism. Everything shares this machine's cores with the client and the rest of the set:
 * the ratios say how far adding replicas helps here, bounded by `nproc`.
 *
 *   pnpm exec tsx bench/scale-out.ts [jobs=12] [downloads=48]
 */
import os from 'node:os';
import crypto from 'node:crypto';
import { startPatchbay, type PatchbayInstance } from '../tests/harness/patchbay';
import { serviceProcesses, exitOf } from '../tests/distributed/service-process';
import { tone } from '../tests/support/media';
import { MiB, table } from './lib/proc';
import { fetchDrain, hammer } from './lib/load';
import type { ApiJson } from '../tests/support/api-json';

const JOBS = Number(process.argv[2] ?? 12);
const DOWNLOADS = Number(process.argv[3] ?? 48);
const FILE_BYTES = 32 * MiB;

async function api(inst: PatchbayInstance, path: string, init: RequestInit = {}): Promise<ApiJson> {
  const res = await fetch(`${inst.origin}/core/v2${path}`, {
    ...init,
    headers: { authorization: `Bearer ${inst.token}`, ...(init.headers ?? {}) },
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ApiJson;
}

const upload = (inst: PatchbayInstance, container: string, name: string, body: Buffer, extra = '') =>
  api(inst, `/storage/files?container_sid=${container}&name=${name}${extra}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body,
  });

/** Seconds for `JOBS` upload-time transcodes, from the first upload to the last job done. */
async function transcodeRun(inst: PatchbayInstance, container: string, label: string): Promise<number> {
  const source = tone('wav', 60);
  const started = performance.now();
  const files = await Promise.all(
    Array.from({ length: JOBS }, (_, i) =>
      upload(inst, container, `${label}-${i}.wav`, source, '&type=audio&desired_format=mp4'),
    ),
  );
  const pending = new Set<string>(files.map((f) => f.file_sid as string));
  const deadline = Date.now() + 15 * 60 * 1000;
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`${pending.size} jobs not done`);
    for (const sid of [...pending]) {
      const f = await api(inst, `/storage/files/${sid}`);
      if (f.content_transcoding_progress === 100) {
        if (f.content_format !== 'mp4') throw new Error(`job ${sid} failed`);
        pending.delete(sid);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - started) / 1000;
}

/** MiB/s of `DOWNLOADS` full downloads spread round-robin over `ports` (8 at a time). */
async function downloadRun(ports: number[], fileSid: string): Promise<number> {
  for (const port of ports) await fetchDrain(`http://127.0.0.1:${port}/f/${fileSid}`); // warm: resolver cache
  const ms = await hammer(DOWNLOADS, 8, (i) => fetchDrain(`http://127.0.0.1:${ports[i % ports.length]}/f/${fileSid}`));
  return (DOWNLOADS * FILE_BYTES) / MiB / (ms / 1000);
}

async function main(): Promise<void> {
  const inst = await startPatchbay('distributed', {
    FILE_SERVER_REPLICAS: '2',
    TRANSCODER_REPLICAS: '3',
    TRANSCODER_CONCURRENCY: '1',
    LOG_LEVEL: 'warn',
  });
  try {
    let container = '';
    while (!container) container = (await api(inst, '/storage/containers')).items?.[0]?.container_sid ?? '';
    const storagePort = Number(new URL(inst.storageUrl).port);
    const transcoders = serviceProcesses(inst.pid, 'services/transcoder/src/main.ts');
    if (transcoders.length !== 3) throw new Error(`expected 3 transcoders, found ${transcoders.length}`);

    // Downloads first, while every transcoder is idle.
    const file = await upload(inst, container, 'big.bin', crypto.randomBytes(FILE_BYTES));
    const dl1 = await downloadRun([storagePort], file.file_sid);
    const dl2 = await downloadRun([storagePort, storagePort + 1], file.file_sid);

    await transcodeRun(inst, container, 'warm'); // ffmpeg, page cache and JIT warm on every replica
    const t3 = await transcodeRun(inst, container, 'three');
    for (const t of transcoders.slice(1)) process.kill(t.pid, 'SIGTERM');
    await Promise.all(transcoders.slice(1).map((t) => exitOf(t.pid, 60000)));
    const t1 = await transcodeRun(inst, container, 'one');

    const r = (x: number) => x.toFixed(2);
    process.stdout.write(
      `\nScale-out on ${os.cpus().length} CPU(s): ${JOBS} upload-time jobs ` +
        `(60 s tone → mp4), ${DOWNLOADS} downloads of ${FILE_BYTES / MiB} MiB ` +
        `(8 at a time)\n\n`,
    );
    process.stdout.write(
      `${table([
        {
          measure: 'transcode jobs/s',
          '1 replica': r(JOBS / t1),
          'N replicas': r(JOBS / t3),
          N: 3,
          ratio: `${r(t1 / t3)}x`,
        },
        { measure: 'download MiB/s', '1 replica': r(dl1), 'N replicas': r(dl2), N: 2, ratio: `${r(dl2 / dl1)}x` },
      ])}\n\n`,
    );
  } finally {
    await inst.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});

/**
 * V8's collector while uploads stream through the gateway (runtime/heap-settings.ts, decisions §46):
 * with Patchbay's heap growth (4× what survived before the next full collection) the process the
 * bytes pass through runs far fewer full mark-compacts than with V8's adaptive factor
 * (`PATCHBAY_GC_HEAP_GROWING_PERCENT=0`), counted by the process itself on its operations port
 * (`nodejs_gc_duration_seconds_count{kind="major"}`). Counts, not times: a busy machine changes
 * how long a collection takes, far less how many the same bytes start.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import request from 'supertest';
import { distributedProcesses } from '../../services/all-in-one/src/process-list';
import { defaultContainer } from '../harness/default-container';
import { releasePorts, reservePorts } from '../harness/free-port';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';

const MiB = 1024 * 1024;
const UPLOAD = 128 * MiB;
const UPLOADS = 5;

/** `size` bytes as 64 KiB pieces, one block sent again and again (the bytes do not matter here). */
function body(size: number): Readable {
  const block = Buffer.alloc(64 * 1024, 0x5a);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      sent += block.length;
      this.push(block);
    },
  });
}

async function upload(inst: PatchbayInstance, container: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = http.request(
      `${inst.baseUrl}/storage/files?container_sid=${container}&name=collector.bin`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${inst.token}`,
          'content-type': 'application/octet-stream',
          'content-length': String(UPLOAD),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 201 ? resolve() : reject(new Error(`upload answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    pipeline(body(UPLOAD), req).catch(reject);
  });
}

/** Full collections the gateway's process has run so far, from its own metrics. */
async function majorCollections(opsUrl: string): Promise<number> {
  const text = (await request(opsUrl).get('/metrics')).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('nodejs_gc_duration_seconds_count{') && l.includes('kind="major"'));
  if (!line) throw new Error('no count of full collections in the metrics');
  return Number(line.split(' ').pop());
}

/** Uploads UPLOADS × UPLOAD bytes through a fresh instance: the full collections they started. */
async function majorsDuringUploads(growingPercent: string | undefined): Promise<number> {
  // The gateway is the last process of the distributed set; the all-in-one has one operations port.
  const gatewayIndex = distributedProcesses({ port: 0, storagePort: 0, storageUrl: '' }).length - 1;
  const opsBase = mode() === 'distributed' ? await reservePorts(gatewayIndex + 1) : undefined;
  const inst = await startPatchbay(mode(), {
    ...(opsBase ? { OPS_PORT_BASE: String(opsBase) } : {}),
    ...(growingPercent !== undefined ? { PATCHBAY_GC_HEAP_GROWING_PERCENT: growingPercent } : {}),
  });
  try {
    const opsUrl = `http://127.0.0.1:${opsBase ? opsBase + gatewayIndex : inst.opsPort}`;
    const container = await defaultContainer(inst, 60_000);
    await request(inst.baseUrl)
      .patch(`/storage/containers/${container}`)
      .set('authorization', `Bearer ${inst.token}`)
      .send({ quota_bytes: 2 * UPLOADS * UPLOAD, quota_files: 100 })
      .expect(200);
    await upload(inst, container); // the first warms the process up
    const before = await majorCollections(opsUrl);
    for (let i = 1; i < UPLOADS; i++) await upload(inst, container);
    return (await majorCollections(opsUrl)) - before;
  } finally {
    await inst.stop();
    if (opsBase) releasePorts(opsBase, gatewayIndex + 1);
  }
}

test('uploads start far fewer full collections with Patchbay heap growth than with V8 adaptive factor', async () => {
  const adaptive = await majorsDuringUploads('0');
  const patchbay = await majorsDuringUploads(undefined);
  // V8's factor: one or more full collections per 128 MiB streamed (3–6 for 384 MiB in both modes, 27 Nov).
  expect(adaptive).toBeGreaterThanOrEqual(3);
  // Patchbay's: none at all in the same runs.
  expect(patchbay).toBeLessThanOrEqual(Math.floor(adaptive / 3));
}, 180_000);

/**
 * A client that hangs up in the middle of its upload is an ordinary event: logged at info as an
 * aborted request, never as an "unhandled error", and it leaves no pending upload and no blob.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Subjects, unwrapReply } from '@patchbay/contracts';
import { DirBlobStore, MemoryBus, SqliteDocStore, createMetricsRegistry, type Stoppable } from '@patchbay/platform';
import { startIdentityService } from '@patchbay/identity';
import { startStorageService } from '@patchbay/storage';
import { startGateway } from '../../src/start';
import { eventually } from '../../../../tests/support/poll';

const lines: Array<{ level: number; msg: string; svc?: string }> = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  }),
);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-abort-'));
const stores: SqliteDocStore[] = [];
const buses: MemoryBus[] = [];
const running: Stoppable[] = [];
let port = 0;
let token = '';
let containerSid = '';

beforeAll(async () => {
  const hub = MemoryBus.hub();
  const bus = () => {
    const b = new MemoryBus(hub);
    buses.push(b);
    return b;
  };
  const docs = () => {
    const d = new SqliteDocStore();
    stores.push(d);
    return d;
  };
  const blobs = new DirBlobStore({ dir: path.join(dir, 'blobs') });
  const metrics = createMetricsRegistry('upload-abort');
  running.push(await startIdentityService({ bus: bus(), docs: docs(), blobs, logger, metrics }));
  running.push(
    await startStorageService(
      { bus: bus(), docs: docs(), blobs, logger: logger.child({ svc: 'storage' }), metrics },
      { storageUrl: 'http://files.test', uploadStaleMs: 3_600_000, sweepIntervalMs: 3_600_000, busTimeoutMs: 5000 },
    ),
  );
  const gateway = await startGateway(
    { bus: bus(), blobs, logger: logger.child({ svc: 'gateway' }), metrics },
    {
      baseUrl: 'http://api.test/core/v2',
      storageUrl: 'http://files.test',
      jsonBodyLimit: 1_048_576,
      authCacheMs: 5000,
      busTimeoutMs: 5000,
    },
    0,
  );
  running.push(gateway);
  port = gateway.port;
  const boot = unwrapReply<{ access_token: string; partner: { partner_sid: string } }>(
    await buses[0].request(Subjects.identity.bootstrap, {}),
  );
  token = boot.access_token;
  const container = unwrapReply<{ container_sid: string }>(
    await buses[0].request(Subjects.storage.containerDefault, { partner_sid: boot.partner.partner_sid }),
  );
  containerSid = container.container_sid;
});

afterAll(async () => {
  for (const s of running.reverse()) await s.stop();
  for (const b of buses) await b.close();
  for (const d of stores) await d.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts an upload of a declared 50 MB, sends ~1 MB, and hangs up. */
async function abandon(pathAndQuery: string, contentType: string, preamble = ''): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = http.request({
      port,
      path: `/core/v2${pathAndQuery}`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(50e6) },
    });
    req.on('error', () => resolve());
    req.write(preamble);
    let n = 0;
    const t = setInterval(() => {
      req.write(Buffer.alloc(65536));
      if (++n > 16) {
        clearInterval(t);
        req.destroy();
        resolve();
      }
    }, 5);
  });
}

async function blobFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(path.join(d, e.name));
      else out.push(e.name);
  };
  if (fs.existsSync(path.join(dir, 'blobs'))) walk(path.join(dir, 'blobs'));
  return out;
}

test('an aborted raw and an aborted multipart upload are logged at info, leave nothing behind', async () => {
  await abandon(`/storage/files?container_sid=${containerSid}&name=big.bin`, 'application/octet-stream');
  const boundary = 'XXBOUNDARY';
  await abandon(
    '/storage/files',
    `multipart/form-data; boundary=${boundary}`,
    `--${boundary}\r\nContent-Disposition: form-data; ` +
      `name="file_object"\r\n\r\n{"container_sid":"${containerSid}"}\r\n--${boundary}\r\nContent-Disposition: ` +
      `form-data; name="data"; filename="a.bin"\r\nContent-Type: ` +
      `application/octet-stream\r\n\r\n`,
  );
  await eventually(() => expect(lines.filter((l) => l.msg === 'client aborted the request')).toHaveLength(2));
  expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  // Both pending uploads were aborted: no blob remains (temp files included).
  await eventually(async () => expect(await blobFiles()).toEqual([]));
});

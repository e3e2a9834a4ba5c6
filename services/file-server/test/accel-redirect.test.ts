import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Registry } from 'prom-client';
import { Subjects } from '@patchbay/contracts';
import { ConfigError, createLogger, DirBlobStore, MemoryBus, type BlobStore, type Stoppable } from '@patchbay/platform';
import { RoutedBlobStore } from '@patchbay/blob-routing';
import { FILE_CSP } from '../src/domain/active-content';
import { startFileServer } from '../src/start';
import { startAccelNginx } from './accel-nginx';

/**
 * FILE_SERVER_ACCEL_REDIRECT through a real nginx: the file server decides the answer and its
 * headers, nginx sends the bytes from the directory store; what a client sees is what it sees
 * without nginx (docs/interface-notes.md, File server and ranges: headers, ranges, If-Range).
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-accel-'));
fs.chmodSync(root, 0o755); // nginx workers run as an unprivileged user
const blobDir = path.join(root, 'blobs');
const DATA = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
// Not the file's mtime: If-Range must be checked against what Patchbay says.
const LAST_MODIFIED = new Date('2020-01-02T03:04:05Z');
const hub = MemoryBus.hub();
const buses: MemoryBus[] = [];
const bus = () => {
  const b = new MemoryBus(hub);
  buses.push(b);
  return b;
};
const blobs = new DirBlobStore({ dir: blobDir });
const logger = createLogger({ name: 'accel-test', level: 'silent' });
let server: Stoppable & { port: number };
let nginx: { port: number; stop(): Promise<void> };
const get = (id: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`http://127.0.0.1:${nginx.port}/f/${id}`, { method, headers });

beforeAll(async () => {
  await blobs.put('files/P1/FI1', Readable.from([DATA]));
  fs.chmodSync(path.join(blobDir, 'files'), 0o755);
  await bus().serve(Subjects.storage.fileResolvePublic, 'storage', async (payload) =>
    (payload as { id: string }).id === 'HT1'
      ? {
          status: 200,
          body: {
            file_sid: 'HT1',
            blob_key: 'files/P1/FI1',
            file_bytes: DATA.length,
            mime_type: 'text/html',
            name: 'a.wav',
            file_access_name: 'HT1.wav',
            content_format: null,
            content_bitrate: null,
            last_modified: LAST_MODIFIED.toISOString(),
          },
        }
      : (payload as { id: string }).id === 'FI1'
        ? {
            status: 200,
            body: {
              file_sid: 'FI1',
              blob_key: 'files/P1/FI1',
              file_bytes: DATA.length,
              mime_type: 'audio/x-wav',
              name: 'a.wav',
              file_access_name: 'FI1.wav',
              content_format: 'wav',
              content_bitrate: null,
              last_modified: LAST_MODIFIED.toISOString(),
            },
          }
        : { status: 404, error: { status: 404, code: 'not_found', message: 'Not Found', errors: [] } },
  );
  server = await startFileServer(
    { bus: bus(), blobs, logger, metrics: new Registry() },
    { port: 0, cacheTtlMs: 5000, busTimeoutMs: 5000, transcodeTimeoutMs: 5000, accelRedirect: '/_patchbay_blobs/' },
  );
  nginx = await startAccelNginx(root, server.port, '/_patchbay_blobs/', blobDir);
});
afterAll(async () => {
  await nginx?.stop();
  await server?.stop();
  await Promise.all(buses.map((b) => b.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

test(
  'the file server answers with X-Accel-Redirect and no body; through ' +
    "nginx the client gets the file with Patchbay's headers",
  async () => {
    const direct = await fetch(`http://127.0.0.1:${server.port}/f/FI1`);
    expect(direct.headers.get('x-accel-redirect')).toBe('/_patchbay_blobs/files/P1/FI1');
    // An empty body said so, not a chunked one nginx would have to read to its end.
    expect([direct.headers.get('content-length'), direct.headers.get('transfer-encoding')]).toEqual(['0', null]);
    expect(await direct.text()).toBe('');
    const res = await get('FI1');
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(DATA)).toBe(true);
    expect(
      Object.fromEntries(
        [
          'content-type',
          'content-length',
          'cache-control',
          'content-disposition',
          'accept-ranges',
          'access-control-allow-origin',
          'access-control-allow-methods',
          'last-modified',
          'x-accel-redirect',
          'x-content-type-options',
          'content-security-policy',
        ].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'audio/x-wav',
      'content-length': String(DATA.length),
      'cache-control': 'None',
      'content-disposition': 'inline',
      'accept-ranges': 'bytes',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'last-modified': LAST_MODIFIED.toUTCString(),
      'x-accel-redirect': null,
      'x-content-type-options': 'nosniff',
      'content-security-policy': FILE_CSP,
    });
  },
);

test('active content through nginx: an attachment, nosniff, sandboxed', async () => {
  for (const query of ['', '?disposition=inline']) {
    const res = await get(`HT1${query}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(DATA.toString());
    expect([
      res.headers.get('content-type'),
      res.headers.get('content-disposition'),
      res.headers.get('x-content-type-options'),
      res.headers.get('content-security-policy'),
    ]).toEqual(['text/html', 'attachment', 'nosniff', FILE_CSP]);
  }
});

test('ranges, If-Range, several ranges and unsatisfiable ranges as without nginx', async () => {
  const part = await get('FI1', { Range: 'bytes=2-5' });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 2-5/${DATA.length}`);
  expect(await part.text()).toBe('2345');
  const suffix = await get('FI1', { Range: 'bytes=-3' });
  expect([suffix.status, await suffix.text()]).toEqual([206, 'xyz']);
  const same = await get('FI1', { Range: 'bytes=0-3', 'If-Range': LAST_MODIFIED.toUTCString() });
  expect([same.status, await same.text()]).toEqual([206, '0123']);
  const changed = await get('FI1', { Range: 'bytes=0-3', 'If-Range': 'Wed, 21 Oct 2015 07:28:00 GMT' });
  expect([changed.status, await changed.text()]).toEqual([200, DATA.toString()]);
  const several = await get('FI1', { Range: 'bytes=0-1,4-5' });
  expect([several.status, await several.text()]).toEqual([200, DATA.toString()]);
  const unsatisfiable = await get('FI1', { Range: 'bytes=100-200' });
  expect(unsatisfiable.status).toBe(416);
  expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${DATA.length}`);
  expect((await unsatisfiable.json()) as unknown).toMatchObject({ message: expect.any(String) });
});

test('HEAD, unknown ids and other paths are answered by the file server as before', async () => {
  const head = await get('FI1', {}, 'HEAD');
  expect([head.status, head.headers.get('content-length')]).toEqual([200, String(DATA.length)]);
  const unknown = await get('nope');
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toEqual({ errors: [], message: 'Not Found' });
});

test('refused with a blob store nginx cannot read', async () => {
  const gridLike: BlobStore = {
    put: blobs.put.bind(blobs),
    get: blobs.get.bind(blobs),
    stat: blobs.stat.bind(blobs),
    delete: blobs.delete.bind(blobs),
  };
  await expect(
    startFileServer(
      { bus: bus(), blobs: gridLike, logger, metrics: new Registry() },
      { port: 0, cacheTtlMs: 0, busTimeoutMs: 1000, transcodeTimeoutMs: 1000, accelRedirect: '/_b/' },
    ),
  ).rejects.toBeInstanceOf(ConfigError);
  // Behind the blob routing every service gets (external containers), the store nginx reads is the one under it.
  const directory = {
    open: async (): Promise<BlobStore> => {
      throw new Error('no external store here');
    },
    evict: () => undefined,
    close: async () => undefined,
  };
  await expect(
    startFileServer(
      { bus: bus(), blobs: new RoutedBlobStore(gridLike, directory), logger, metrics: new Registry() },
      { port: 0, cacheTtlMs: 0, busTimeoutMs: 1000, transcodeTimeoutMs: 1000, accelRedirect: '/_b/' },
    ),
  ).rejects.toBeInstanceOf(ConfigError);
  const routed = await startFileServer(
    { bus: bus(), blobs: new RoutedBlobStore(blobs, directory), logger, metrics: new Registry() },
    { port: 0, cacheTtlMs: 0, busTimeoutMs: 1000, transcodeTimeoutMs: 1000, accelRedirect: '/_b/' },
  );
  await routed.stop();
});

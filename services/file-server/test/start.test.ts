import fs from 'node:fs';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { Subjects } from '@patchbay/contracts';
import { createLogger, DirBlobStore, MemoryBus, type Stoppable } from '@patchbay/platform';
import { startFileServer } from '../src/start';
import { eventually } from '../../../tests/support/poll';

/**
 * The file server keeps a blob open briefly between range replies; here another process (a second
 * store on the same directory) replaces and deletes the bytes, and the file events storage
 * publishes must make the next reply show exactly that, never the bytes kept open.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-fs-open-'));
const hub = MemoryBus.hub();
const buses: MemoryBus[] = [];
const bus = () => {
  const b = new MemoryBus(hub);
  buses.push(b);
  return b;
};
const served = new DirBlobStore({ dir: root });
const storageSide = new DirBlobStore({ dir: root });
let server: Stoppable & { port: number };
let current: { bytes: number; lastModified: string } | null;
const storage = bus();

const write = async (text: string) => {
  await storageSide.put('files/P1/FI1', Readable.from([Buffer.from(text)]));
  current = { bytes: text.length, lastModified: new Date().toISOString() };
};
const range = async (spec: string) => {
  const res = await fetch(`http://127.0.0.1:${server.port}/f/FI1`, { headers: { Range: `bytes=${spec}` } });
  return { status: res.status, text: await res.text() };
};

beforeAll(async () => {
  await storage.serve(Subjects.storage.fileResolvePublic, 'storage', async () =>
    current
      ? {
          status: 200,
          body: {
            file_sid: 'FI1',
            blob_key: 'files/P1/FI1',
            file_bytes: current.bytes,
            mime_type: 'audio/x-wav',
            name: 'a.wav',
            file_access_name: 'FI1.wav',
            content_format: 'wav',
            content_bitrate: null,
            last_modified: current.lastModified,
          },
        }
      : { status: 404, error: { status: 404, code: 'not_found', message: 'Not Found', errors: [] } },
  );
  server = await startFileServer(
    {
      bus: bus(),
      blobs: served,
      logger: createLogger({ name: 'file-server-test', level: 'silent' }),
      metrics: new Registry(),
    },
    { port: 0, cacheTtlMs: 60_000, busTimeoutMs: 5000, transcodeTimeoutMs: 5000, keepOpenMs: 60_000 },
  );
});
afterAll(async () => {
  await server.stop();
  await served.close();
  await Promise.all(buses.map((b) => b.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

test('a replaced or deleted blob is never served from a file kept open once its file event is out', async () => {
  await write('0123456789');
  expect(await range('0-3')).toEqual({ status: 206, text: '0123' });
  // Same size, same key, written by another process: the kept file still has the old bytes; the event drops it.
  await write('abcdefghij');
  await storage.publish(Subjects.events.fileUpdated, {
    file_sid: 'FI1',
    partner_sid: 'P1',
    file_access_name: 'FI1.wav',
  });
  await eventually(async () => expect(await range('0-3')).toEqual({ status: 206, text: 'abcd' }));
  await storageSide.delete('files/P1/FI1');
  current = null;
  await storage.publish(Subjects.events.fileDeleted, {
    file_sid: 'FI1',
    partner_sid: 'P1',
    container_sid: 'C1',
    file_access_name: 'FI1.wav',
  });
  await eventually(async () => expect((await range('0-3')).status).toBe(404));
});

test('without the event, the kept file (and the cached answer) are what is served until their time is up', async () => {
  // What the test above relies on: the file server does keep the blob open (otherwise it proves nothing).
  await write('0123456789');
  await storage.publish(Subjects.events.fileUpdated, {
    file_sid: 'FI1',
    partner_sid: 'P1',
    file_access_name: 'FI1.wav',
  });
  // Handled before the first read (or it would drop the file that read keeps): a drop shows nothing to wait on.
  await new Promise((r) => setTimeout(r, 50));
  expect(await range('0-3')).toEqual({ status: 206, text: '0123' });
  await write('abcdefghij');
  expect(await range('0-3')).toEqual({ status: 206, text: '0123' });
});

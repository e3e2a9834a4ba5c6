/**
 * Readiness does not grow with the data (issue 40 item 3, decisions §49): the storage service is ready after the
 * same number of store queries whatever its blobs, its orphan sweep runs after that, in batches (one lookup per
 * ORPHAN_SWEEP_BATCH blobs, never one per blob), and it still removes the orphans and nothing else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  DirBlobStore,
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type Collection,
  type DocStore,
  type Stoppable,
} from '@patchbay/platform';
import { startStorageService } from '../../src/service';
import { ORPHAN_SWEEP_BATCH } from '../../src/operations/orphan-blobs';
import { eventually } from '../../../../tests/support/poll';

/** Every call made on the store's collections, with its collection, method and filter. */
type Call = { collection: string; method: string; filter: unknown };

/** The store, counting the calls made on it. */
function counted(docs: DocStore, calls: Call[]): DocStore {
  return {
    close: () => docs.close(),
    collection<T extends object>(name: string): Collection<T> {
      const inner = docs.collection<T>(name);
      return new Proxy(inner, {
        get(target, method: string) {
          // why: every Collection method is a function of the inner collection; the proxy only records the call.
          const fn = (target as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
          return (...args: unknown[]) => {
            calls.push({ collection: name, method, filter: args[0] });
            return fn.apply(target, args);
          };
        },
      });
    },
  };
}

const roots: string[] = [];
const running: Array<{ storage: Stoppable; bus: MemoryBus; docs: DocStore }> = [];
afterAll(async () => {
  for (const r of running) {
    await r.storage.stop();
    await r.bus.close();
    await r.docs.close();
  }
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A storage service over `files` stored files and `orphans` blobs of files that are gone. */
async function startWith(files: number, orphans: number) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-start-maintenance-'));
  roots.push(root);
  const blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
  const sqlite = new SqliteDocStore();
  const partner = randomUUID();
  const live: string[] = [];
  const docs: Array<Record<string, unknown>> = [];
  for (let i = 0; i < files + orphans; i++) {
    const sid = randomUUID();
    const key = `files/${partner}/${sid}`;
    await blobs.put(key, Readable.from([Buffer.from('x')]));
    if (i < files) {
      live.push(key);
      docs.push({ file_sid: sid, blob_key: key, partner_sid: partner, container_sid: 'c', file_access_name: sid });
    }
  }
  if (docs.length > 0) await sqlite.collection('files').insertMany(docs);
  const calls: Call[] = [];
  const bus = new MemoryBus(MemoryBus.hub());
  const store = counted(sqlite, calls);
  const storage = await startStorageService(
    {
      bus,
      docs: store,
      blobs,
      logger: createLogger({ name: 'start-up-maintenance', level: 'silent' }),
      metrics: createMetricsRegistry('start-up-maintenance'),
    },
    // Every blob is old enough to go if it is an orphan.
    { storageUrl: 'http://files.test', uploadStaleMs: 1, sweepIntervalMs: 1000, busTimeoutMs: 5000 },
  );
  running.push({ storage, bus, docs: store });
  const atReady = [...calls];
  const listed = async () => {
    const keys: string[] = [];
    for await (const k of blobs.list!('files/')) keys.push(k);
    return keys.sort();
  };
  return { atReady, calls, listed, live: live.sort(), blobsAtReady: (await listed()).length };
}

/** Reads of files by SID (the sweep's lookups). */
const fileLookups = (calls: Call[]) =>
  calls.filter(
    (c) => c.collection === 'files' && /^find/.test(c.method) && JSON.stringify(c.filter).includes('file_sid'),
  );

test('ready after as many store queries with 1,800 blobs as with none; then the orphans go, in batches', async () => {
  const empty = await startWith(0, 0);
  const full = await startWith(1500, 300);
  // As many queries before ready, and none of them about a blob: the sweep had not started.
  expect(full.atReady.length).toBe(empty.atReady.length);
  expect(fileLookups(full.atReady)).toEqual([]);
  expect(full.blobsAtReady).toBe(1800);
  // After ready: the orphans go, every stored file's blob stays.
  await eventually(async () => expect(await full.listed()).toEqual(full.live), 15_000, 50);
  // One lookup of files per batch of blob names, never one per blob.
  const lookups = fileLookups(full.calls);
  expect(lookups.length).toBe(Math.ceil(1800 / ORPHAN_SWEEP_BATCH));
  expect(lookups.every((c) => c.method === 'find')).toBe(true);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { UnavailableError } from '@patchbay/contracts';
import { BlobStoreUnavailableError, DirBlobStore, type BlobStore } from '@patchbay/platform';
import { RoutedBlobStore, externalKey, parseExternalKey, type StoreDirectory } from '../src';

const text = async (s: Readable) => {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts).toString();
};

/** Two real directory stores: Patchbay's own, and one standing in for a container's bucket. */
describe('RoutedBlobStore', () => {
  let root: string;
  let own: DirBlobStore;
  let bucket: DirBlobStore;
  let opened: string[];
  let evicted: string[];
  let routed: RoutedBlobStore;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'routing-'));
    own = new DirBlobStore({ dir: path.join(root, 'own') });
    bucket = new DirBlobStore({ dir: path.join(root, 'bucket') });
    opened = [];
    evicted = [];
    const directory: StoreDirectory = {
      open: async (id) => {
        opened.push(id);
        if (id !== 'c1.1') throw new UnavailableError({ message: 'unknown store' });
        return bucket;
      },
      evict: (id) => {
        evicted.push(id);
      },
      close: async () => undefined,
    };
    routed = new RoutedBlobStore(own, directory);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test(
    'ext/<store_id>/ keys are read, written, ranged and deleted in that ' +
      "store, without the prefix; others in Patchbay's own",
    async () => {
      const key = externalKey('c1.1', 'files/p/f1');
      expect(parseExternalKey(key)).toEqual({ storeId: 'c1.1', key: 'files/p/f1' });
      expect(parseExternalKey('files/p/f1')).toBeNull();
      await routed.put(key, Readable.from([Buffer.from('in the bucket')]));
      await routed.put('files/p/f2', Readable.from([Buffer.from('at home')]));
      expect(await text(await bucket.get('files/p/f1'))).toBe('in the bucket');
      expect(await text(await own.get('files/p/f2'))).toBe('at home');
      await expect(own.stat('files/p/f1')).rejects.toThrow();
      expect(await text(await routed.get(key, { start: 3, end: 5 }))).toBe('the');
      expect((await routed.stat(key)).size).toBe(13);
      const file = path.join(root, 'local');
      fs.writeFileSync(file, 'from a file');
      await routed.putFile(externalKey('c1.1', 'files/p/f3'), file);
      expect(await text(await bucket.get('files/p/f3'))).toBe('from a file');
      await routed.delete(key);
      await expect(bucket.stat('files/p/f1')).rejects.toThrow();
      expect(opened.every((id) => id === 'c1.1')).toBe(true);
    },
  );

  test("listing and sweeping stay in Patchbay's own store", async () => {
    await routed.put(externalKey('c1.1', 'files/p/x'), Readable.from([Buffer.from('x')]));
    await routed.put('files/p/y', Readable.from([Buffer.from('y')]));
    const keys: string[] = [];
    for await (const k of routed.list('files/')) keys.push(k);
    expect(keys).toEqual(['files/p/y']);
  });

  test(
    'an unknown store fails the request (503); a refused credential ' + 'forgets the store so the next use asks again',
    async () => {
      await expect(routed.get(externalKey('gone.1', 'files/p/x'))).rejects.toBeInstanceOf(UnavailableError);
      const refusing: BlobStore = {
        ...bucket,
        get: async () => {
          throw new BlobStoreUnavailableError({ reason: 'bad_credentials', message: 'refused' });
        },
        put: bucket.put.bind(bucket),
        stat: bucket.stat.bind(bucket),
        delete: bucket.delete.bind(bucket),
      };
      const r = new RoutedBlobStore(own, {
        open: async () => refusing,
        evict: (id) => {
          evicted.push(id);
        },
        close: async () => undefined,
      });
      await expect(r.get(externalKey('c1.1', 'files/p/x'))).rejects.toMatchObject({ reason: 'bad_credentials' });
      expect(evicted).toEqual(['c1.1']);
    },
  );
});

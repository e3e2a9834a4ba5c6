/**
 * The blob-store contract: every BlobStore adapter passes this suite unchanged.
 * Each test works under its own key prefix, so one store serves the whole suite.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BadRequestError, NotFoundError, RangeNotSatisfiableError } from '@patchbay/contracts';
import type { BlobStore } from '../../src/blob-store/port';
import { bufferStream, failingStream, generated, readAll, sha256, sha256Of, slowStream } from './blob-test-kit';

export interface BlobStoreContractOptions {
  /** What an adapter left behind that nobody can see: temp files, orphan chunks. Must be empty between tests. */
  leftovers?: () => Promise<string[]>;
  /** The adapter implements the optional `putFile`. */
  offersPutFile?: boolean;
}

const MiB = 1024 * 1024;

export function describeBlobStoreContract(
  name: string,
  makeStore: () => Promise<BlobStore>,
  opts: BlobStoreContractOptions = {},
): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let p: string;

    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close?.();
    });
    beforeEach(() => {
      p = `c${randomUUID().slice(0, 8)}/`;
    });

    it('round-trips a multi-MiB stream generated on the fly', async () => {
      const content = generated(5 * MiB + 123, 42);
      await expect(store.put(`${p}big.bin`, content.stream())).resolves.toEqual({ size: 5 * MiB + 123 });
      expect(await sha256Of(await store.get(`${p}big.bin`))).toBe(content.sha256);
      expect((await store.stat(`${p}big.bin`)).size).toBe(5 * MiB + 123);
    });

    it('stores a non-durable put (a re-creatable copy) like any other, replacing and replaced atomically', async () => {
      const content = generated(2 * MiB + 5, 7);
      await store.put(`${p}copy`, bufferStream('older'));
      await expect(store.put(`${p}copy`, content.stream(), { durable: false })).resolves.toEqual({ size: 2 * MiB + 5 });
      expect(await sha256Of(await store.get(`${p}copy`))).toBe(content.sha256);
      await store.put(`${p}copy`, bufferStream('durable again'));
      expect((await readAll(await store.get(`${p}copy`))).toString()).toBe('durable again');
      if (opts.leftovers) expect(await opts.leftovers()).toEqual([]);
    });

    // Optional in the port: the adapters that offer a file copy must store exactly what put would.
    // Registered only for them: an adapter without the capability has nothing to skip.
    if (opts.offersPutFile)
      it(
        'putFile stores a local file exactly, atomically, durable or not, and ' +
          'a missing file is an error that leaves nothing',
        async () => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-putfile-'));
          try {
            const content = generated(3 * MiB + 17, 9);
            const local = path.join(dir, 'local.bin');
            await pipeline(content.stream(), fs.createWriteStream(local));
            await store.put(`${p}f`, bufferStream('older'));
            await expect(store.putFile!(`${p}f`, local)).resolves.toEqual({ size: 3 * MiB + 17 });
            expect(await sha256Of(await store.get(`${p}f`))).toBe(content.sha256);
            await expect(store.putFile!(`${p}g`, local, { durable: false })).resolves.toEqual({ size: 3 * MiB + 17 });
            expect((await store.stat(`${p}g`)).size).toBe(3 * MiB + 17);
            await expect(store.putFile!(`${p}h`, path.join(dir, 'missing'))).rejects.toThrow();
            await expect(store.stat(`${p}h`)).rejects.toBeInstanceOf(NotFoundError);
            if (opts.leftovers) expect(await opts.leftovers()).toEqual([]);
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      );

    it('stores an empty object', async () => {
      await expect(store.put(`${p}empty`, bufferStream(''))).resolves.toEqual({ size: 0 });
      expect((await readAll(await store.get(`${p}empty`))).length).toBe(0);
      expect((await store.stat(`${p}empty`)).size).toBe(0);
      await expect(store.get(`${p}empty`, { start: 0, end: 0 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    });

    it('overwrites an object', async () => {
      await store.put(`${p}k`, bufferStream('first version, longer'));
      await expect(store.put(`${p}k`, bufferStream('second'))).resolves.toEqual({ size: 6 });
      expect((await readAll(await store.get(`${p}k`))).toString()).toBe('second');
      expect((await store.stat(`${p}k`)).size).toBe(6);
    });

    it('serves inclusive byte ranges with the HTTP rules', async () => {
      const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));
      await store.put(`${p}r`, bufferStream(body));
      const range = async (start: number, end: number) => readAll(await store.get(`${p}r`, { start, end }));
      expect(await range(0, 0)).toEqual(body.subarray(0, 1));
      expect(await range(999, 999)).toEqual(body.subarray(999));
      expect(await range(100, 199)).toEqual(body.subarray(100, 200));
      expect(await range(0, 999)).toEqual(body);
      expect(await range(990, 5000)).toEqual(body.subarray(990)); // end past the last byte: served to the end
      for (const start of [1000, 5000]) {
        const err = await store.get(`${p}r`, { start, end: start + 10 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RangeNotSatisfiableError);
        expect((err as RangeNotSatisfiableError).size).toBe(1000);
        expect((err as RangeNotSatisfiableError).status).toBe(416);
      }
    });

    it('stats size and modification time', async () => {
      const before = Date.now();
      await store.put(`${p}s`, bufferStream('12345'));
      const st = await store.stat(`${p}s`);
      expect(st.size).toBe(5);
      expect(st.modified).toBeInstanceOf(Date);
      expect(st.modified.getTime()).toBeGreaterThanOrEqual(before - 2000);
      expect(st.modified.getTime()).toBeLessThanOrEqual(Date.now() + 2000);
    });

    it('reports a missing key as NotFoundError (blob_not_found) on get and stat', async () => {
      const missing = { status: 404, code: 'blob_not_found' };
      for (const failed of [store.get(`${p}missing`), store.get(`${p}missing`, { start: 0, end: 1 })]) {
        const err = await failed.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(NotFoundError);
        expect(err).toMatchObject(missing);
      }
      await expect(store.stat(`${p}missing`)).rejects.toBeInstanceOf(NotFoundError);
      await expect(store.stat(`${p}missing`)).rejects.toMatchObject(missing);
    });

    it('deletes idempotently', async () => {
      await store.delete(`${p}never-written`);
      await store.put(`${p}d`, bufferStream('x'));
      await store.delete(`${p}d`);
      await expect(store.stat(`${p}d`)).rejects.toBeInstanceOf(NotFoundError);
      await store.delete(`${p}d`);
    });

    it('lists keys by prefix', async () => {
      if (!store.list) return;
      for (const k of ['list/a/1', 'list/a/2', 'list/b/1', 'listx/1', 'other'])
        await store.put(`${p}${k}`, bufferStream(k));
      const list = async (prefix: string) => {
        const keys: string[] = [];
        for await (const k of store.list!(prefix)) keys.push(k);
        return keys.sort();
      };
      expect(await list(`${p}list/a/`)).toEqual([`${p}list/a/1`, `${p}list/a/2`]);
      expect(await list(`${p}list/`)).toEqual([`${p}list/a/1`, `${p}list/a/2`, `${p}list/b/1`]);
      expect(await list(`${p}list`)).toEqual([`${p}list/a/1`, `${p}list/a/2`, `${p}list/b/1`, `${p}listx/1`]);
      expect(await list(`${p}nothing/`)).toEqual([]);
      await store.put(`${p}list/a/1`, bufferStream('again')); // an overwritten key is listed once
      expect(await list(`${p}list/a/`)).toEqual([`${p}list/a/1`, `${p}list/a/2`]);
    });

    it('leaves no object and no leftovers when the source fails half-way', async () => {
      await expect(store.put(`${p}new`, failingStream(MiB + 17))).rejects.toThrow('source failed');
      await expect(store.stat(`${p}new`)).rejects.toBeInstanceOf(NotFoundError);
      if (opts.leftovers) expect(await opts.leftovers()).toEqual([]);
    });

    it('keeps the previous object intact when an overwrite fails', async () => {
      const old = generated(MiB + 5, 3);
      await store.put(`${p}keep`, old.stream());
      await expect(store.put(`${p}keep`, failingStream(2 * MiB))).rejects.toThrow('source failed');
      expect(await sha256Of(await store.get(`${p}keep`))).toBe(old.sha256);
      expect((await store.stat(`${p}keep`)).size).toBe(MiB + 5);
      if (opts.leftovers) expect(await opts.leftovers()).toEqual([]);
    });

    it('shows concurrent readers the old or the new object in full, never a mix', async () => {
      const a = generated(2 * MiB, 11);
      const b = generated(2 * MiB, 12);
      await store.put(`${p}swap`, a.stream());
      let done = false;
      const writing = store.put(`${p}swap`, slowStream(2 * MiB, 12)).finally(() => {
        done = true;
      });
      const reads: Promise<string>[] = [];
      while (!done) {
        reads.push(store.get(`${p}swap`).then(sha256Of));
        await new Promise((r) => setTimeout(r, 3)); // the readers' pace while the put lasts
      }
      await writing;
      const seen = await Promise.all(reads);
      expect(seen.length).toBeGreaterThan(2);
      for (const h of seen) expect([a.sha256, b.sha256]).toContain(h);
      expect(seen[0]).toBe(a.sha256); // the first read started before the new object could be complete
      expect(await sha256Of(await store.get(`${p}swap`))).toBe(b.sha256);
    });

    it('rejects bad keys with BadRequestError before any I/O', async () => {
      const bad = [
        '',
        '/abs',
        '../up',
        'a/../b',
        '..',
        'a//b',
        'a/',
        'a b',
        'a\\b',
        'a/./b',
        'é',
        '.tmp/x',
        'x'.repeat(2000),
      ];
      for (const key of bad) {
        await expect(store.put(key, bufferStream('x'))).rejects.toBeInstanceOf(BadRequestError);
        await expect(store.get(key)).rejects.toBeInstanceOf(BadRequestError);
        await expect(store.stat(key)).rejects.toBeInstanceOf(BadRequestError);
        await expect(store.delete(key)).rejects.toMatchObject({ status: 400 });
      }
      await expect(store.put(`${p}ok/Name_1-2.v3.bin`, bufferStream('fine'))).resolves.toEqual({ size: 4 });
      expect(sha256(await readAll(await store.get(`${p}ok/Name_1-2.v3.bin`)))).toBe(sha256(Buffer.from('fine')));
    });
  });
}

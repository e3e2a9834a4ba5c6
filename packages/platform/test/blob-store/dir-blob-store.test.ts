import { mkdtemp, readdir, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BadRequestError, ConflictError, NotFoundError } from '@patchbay/contracts';
import { DirBlobStore } from '../../src/blob-store/dir-blob-store';
import { describeBlobStoreContract } from './blob-store-contract';
import { bufferStream, readAll } from './blob-test-kit';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'patchbay-blobs-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const tempFiles = async (dir: string): Promise<string[]> => readdir(path.join(dir, '.tmp')).catch(() => []);

describeBlobStoreContract('DirBlobStore', async () => new DirBlobStore({ dir: path.join(root, 'contract') }), {
  leftovers: () => tempFiles(path.join(root, 'contract')),
  offersPutFile: true,
});

describe('DirBlobStore specifics', () => {
  let dir: string;
  let store: DirBlobStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(root, 'own-'));
    store = new DirBlobStore({ dir });
  });

  it('stores a key as the file <dir>/<key>, written through .tmp', async () => {
    await store.put('a/b/c.txt', bufferStream('hello'));
    expect((await stat(path.join(dir, 'a/b/c.txt'))).size).toBe(5);
    expect(await tempFiles(dir)).toEqual([]);
  });

  it('does not list its temp directory', async () => {
    await mkdir(path.join(dir, '.tmp'), { recursive: true });
    await writeFile(path.join(dir, '.tmp', 'partial'), 'x');
    await store.put('k', bufferStream('v'));
    const keys: string[] = [];
    for await (const k of store.list('')) keys.push(k);
    expect(keys).toEqual(['k']);
  });

  it('sweeps temp files older than the given age and keeps fresh ones', async () => {
    await mkdir(path.join(dir, '.tmp'), { recursive: true });
    await writeFile(path.join(dir, '.tmp', 'stale'), 'x');
    await writeFile(path.join(dir, '.tmp', 'fresh'), 'y');
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(path.join(dir, '.tmp', 'stale'), hourAgo, hourAgo);
    await expect(store.sweepTemp(10 * 60_000)).resolves.toBe(1);
    expect(await tempFiles(dir)).toEqual(['fresh']);
    await expect(new DirBlobStore({ dir: path.join(dir, 'nothing-yet') }).sweepTemp(0)).resolves.toBe(0);
  });

  it("treats a key that is another key's directory as missing, and refuses to write through a file", async () => {
    await store.put('x/y', bufferStream('1'));
    await expect(store.get('x')).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.stat('x')).rejects.toBeInstanceOf(NotFoundError);
    await store.delete('x');
    await expect(store.put('x/y/z', bufferStream('2'))).rejects.toBeInstanceOf(ConflictError);
    await expect(store.put('x', bufferStream('3'))).rejects.toBeInstanceOf(ConflictError);
    expect((await readAll(await store.get('x/y'))).toString()).toBe('1');
    expect(await tempFiles(dir)).toEqual([]);
  });

  it('rejects a list prefix that would leave the directory', async () => {
    const keys = async () => {
      for await (const _ of store.list('../')) void _;
    };
    await expect(keys()).rejects.toBeInstanceOf(BadRequestError);
  });
});

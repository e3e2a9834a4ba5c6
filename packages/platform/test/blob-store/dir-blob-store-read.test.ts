import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NotFoundError } from '@patchbay/contracts';
import { DirBlobStore } from '../../src/blob-store/dir-blob-store';
import type { ReadOptions } from '../../src/blob-store/port';
import { bufferStream } from './blob-test-kit';
import { eventually } from '../../../../tests/support/poll';

/** DirBlobStore.openReader: positioned reads of one open file, which it may keep open for a while. */
let dir: string;
let store: DirBlobStore;
/** Another store on the same directory: another process (a storage replica) writing. */
let elsewhere: DirBlobStore;
const buf = () => Buffer.alloc(64);
const KEEP = { keepOpenMs: 60_000 };
const openFds = async () => (await readdir('/proc/self/fd')).length;

async function readText(key: string, start: number, end: number, opts: ReadOptions = KEEP): Promise<string> {
  const b = buf();
  const reader = await store.openReader(key, opts);
  try {
    const n = await reader.read(b, start, Math.min(end - start + 1, b.length));
    return b.subarray(0, n).toString();
  } finally {
    reader.close();
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-read-'));
  store = new DirBlobStore({ dir });
  elsewhere = new DirBlobStore({ dir });
  await store.put('files/p/F1', bufferStream('0123456789'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

it('reads a range (fewer bytes only at the end), with the size it opened and the get errors', async () => {
  expect(await readText('files/p/F1', 2, 5)).toBe('2345');
  expect(await readText('files/p/F1', 8, 100)).toBe('89');
  expect(await readText('files/p/F1', 10, 12)).toBe('');
  const reader = await store.openReader('files/p/F1');
  expect(reader.size).toBe(10);
  reader.close();
  await expect(reader.read(buf(), 0, 1)).rejects.toThrow(/closed/);
  await expect(readText('files/p/nope', 0, 1)).rejects.toBeInstanceOf(NotFoundError);
  await expect(readText('files/p', 0, 1)).rejects.toBeInstanceOf(NotFoundError);
});

it('without keepOpenMs leaves no file open and sees every change', async () => {
  const before = await openFds();
  expect(await readText('files/p/F1', 0, 3, {})).toBe('0123');
  expect(await openFds()).toBe(before);
  await elsewhere.put('files/p/F1', bufferStream('abcdefghij'));
  expect(await readText('files/p/F1', 0, 3, {})).toBe('abcd');
  await elsewhere.delete('files/p/F1');
  await expect(readText('files/p/F1', 0, 3, {})).rejects.toBeInstanceOf(NotFoundError);
});

it("a kept file is dropped by the same store's put and delete at once", async () => {
  expect(await readText('files/p/F1', 0, 3)).toBe('0123');
  await store.put('files/p/F1', bufferStream('abcdefghij'));
  expect(await readText('files/p/F1', 0, 3)).toBe('abcd');
  await store.delete('files/p/F1');
  await expect(readText('files/p/F1', 0, 3)).rejects.toBeInstanceOf(NotFoundError);
});

it('a change made elsewhere is seen after forgetOpen, or at once when the caller knows the new size', async () => {
  expect(await readText('files/p/F1', 0, 3)).toBe('0123');
  await elsewhere.put('files/p/F1', bufferStream('abcdefghij'));
  // Kept open: still the bytes it opened (the same size tells nothing) ...
  expect(await readText('files/p/F1', 0, 3)).toBe('0123');
  // ... until told the key changed (the file server does on file events).
  store.forgetOpen((key) => key.split('/').includes('F1'));
  expect(await readText('files/p/F1', 0, 3)).toBe('abcd');
  await elsewhere.put('files/p/F1', bufferStream('ABCDEFGHIJKL'));
  expect(await readText('files/p/F1', 0, 3, { ...KEEP, size: 12 })).toBe('ABCD');
  await elsewhere.delete('files/p/F1');
  store.forgetOpen((key) => key === 'files/p/F1');
  await expect(readText('files/p/F1', 0, 3)).rejects.toBeInstanceOf(NotFoundError);
});

it('closes kept files when their time is up and on close()', async () => {
  const before = await openFds();
  await readText('files/p/F1', 0, 3, { keepOpenMs: 50 });
  expect(await openFds()).toBe(before + 1);
  await eventually(async () => expect(await openFds()).toBe(before));
  await readText('files/p/F1', 0, 3);
  expect(await openFds()).toBe(before + 1);
  await store.close();
  await eventually(async () => expect(await openFds()).toBe(before));
});

it('an open reader keeps the bytes it opened while a put replaces the object', async () => {
  const reader = await store.openReader('files/p/F1', {});
  await store.put('files/p/F1', bufferStream('abcdefghij'));
  const b = buf();
  const n = await reader.read(b, 0, 10);
  expect(b.subarray(0, n).toString()).toBe('0123456789');
  reader.close();
  expect(await readText('files/p/F1', 0, 3)).toBe('abcd');
});

it('many concurrent reads of one key share the file and all get the right bytes', async () => {
  const texts = await Promise.all(Array.from({ length: 50 }, (_, i) => readText('files/p/F1', i % 10, 9)));
  texts.forEach((t, i) => expect(t).toBe('0123456789'.slice(i % 10)));
});

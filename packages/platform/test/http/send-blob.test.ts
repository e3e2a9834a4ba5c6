import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '@patchbay/contracts';
import { DirBlobStore } from '../../src/blob-store/dir-blob-store';
import { BLOCK } from '../../src/blob-store/block-cache';
import { CHUNK, sendBlob } from '../../src/http/send-blob';
import { bufferStream } from '../blob-store/blob-test-kit';

/**
 * sendBlob over a real HTTP server and a directory store with a block cache: every reply is the
 * stored bytes — small ranges inside one cached block and across several, whole files longer than
 * one read, and a file replaced under the same key (a new inode: never answered from the old one's
 * blocks).
 */
let dir: string;
let store: DirBlobStore;
let server: http.Server;
let base: string;
const SIZE = 3 * CHUNK + 12_345;
let bytes: Buffer;
const lastModified = new Date(0).toUTCString();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-send-blob-'));
  store = new DirBlobStore({ dir, blockCacheBytes: 4 * BLOCK }); // small: eviction happens too
  server = http.createServer((req, res) => {
    sendBlob(req, res, store, {
      key: 'files/p/F',
      size: Number(req.headers['x-size']),
      contentType: 'application/octet-stream',
      lastModified,
      ranges: true,
      keepOpenMs: 60_000,
    }).catch((err: unknown) => {
      res.statusCode = err instanceof ApiError ? err.status : 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function put(content: Buffer): Promise<void> {
  bytes = content;
  await store.put('files/p/F', bufferStream(content));
}

async function get(range?: [number, number]): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(base, {
    headers: { 'x-size': String(bytes.length), ...(range ? { range: `bytes=${range[0]}-${range[1]}` } : {}) },
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

it('sends small ranges (within a block, across blocks, at the end) from the cache and the disk alike', async () => {
  await put(randomBytes(SIZE));
  const ranges: Array<[number, number]> = [
    [0, 99],
    [BLOCK - 10, BLOCK + 10],
    [5, 3 * BLOCK + 7],
    [SIZE - 100, SIZE - 1],
    [BLOCK, 2 * BLOCK - 1],
  ];
  for (let round = 0; round < 3; round++) {
    for (const [a, b] of [...ranges, [round * 1000, round * 1000 + CHUNK - 1] as [number, number]]) {
      const { status, body, headers } = await get([a, b]);
      expect(status).toBe(206);
      expect(headers.get('content-range')).toBe(`bytes ${a}-${b}/${SIZE}`);
      expect(body.equals(bytes.subarray(a, b + 1))).toBe(true);
    }
  }
});

it('sends a whole file longer than one read, and ranges longer than one read', async () => {
  await put(randomBytes(SIZE));
  const whole = await get();
  expect(whole.status).toBe(200);
  expect(whole.headers.get('content-length')).toBe(String(SIZE));
  expect(whole.body.equals(bytes)).toBe(true);
  const long = await get([7, SIZE - 7]);
  expect(long.body.equals(bytes.subarray(7, SIZE - 6))).toBe(true);
});

it('a file replaced under the same key (same size) is never answered from the old blocks', async () => {
  await put(randomBytes(SIZE));
  expect((await get([100, 200])).body.equals(bytes.subarray(100, 201))).toBe(true);
  await put(randomBytes(SIZE)); // the same store's put drops what it kept open; the cache keeps the old inode's blocks
  expect((await get([100, 200])).body.equals(bytes.subarray(100, 201))).toBe(true);
});

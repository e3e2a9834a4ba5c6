import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { decryptStream, encryptStream, FileKeyIdentity, type AgeSummary } from '@patchbay/age';
import type { BlobStore } from '@patchbay/platform';

/**
 * A scratch directory for one job: ffmpeg reads and writes local files (mp4 needs a seekable
 * output; probing needs the real size). Removed whatever happens.
 */
export async function withScratch<T>(root: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(root, randomUUID());
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    return await work(dir);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Copies a blob to a local file, streaming; aborting `signal` stops the copy (rejects with an AbortError).
 * With `fileKey` the blob is an encrypted upload (an age file): its plaintext is what lands in the
 * file, in this job's scratch directory only, removed with it (decisions §43).
 */
export async function fetchBlob(
  blobs: BlobStore,
  key: string,
  file: string,
  signal?: AbortSignal,
  fileKey?: Buffer,
): Promise<void> {
  const source = await blobs.get(key);
  if (fileKey) {
    await pipeline(source, decryptStream([new FileKeyIdentity(fileKey)]), fs.createWriteStream(file), { signal });
    return;
  }
  await pipeline(source, fs.createWriteStream(file), { signal });
}

/** Stores a local file as an age file encrypted to `recipients` (the blob store makes the write atomic). */
export async function storeSealedBlob(
  blobs: BlobStore,
  key: string,
  file: string,
  recipients: readonly string[],
): Promise<AgeSummary> {
  const enc = encryptStream(recipients);
  const reading = pipeline(fs.createReadStream(file, { highWaterMark: CHUNK }), enc);
  await Promise.all([blobs.put(key, enc), reading]);
  if (!enc.summary) throw new Error('the age encrypter ended without a summary'); // unreachable after 'end'
  return enc.summary;
}

/**
 * Local files are read in 1 MiB chunks: each chunk is a thread-pool round trip, and with the
 * default 64 KiB a 4 MB wav spends longer in those than in the copy itself.
 */
const CHUNK = 1024 * 1024;

/** Stores a local file as a blob (the blob store makes the write atomic). */
export async function storeBlob(
  blobs: BlobStore,
  key: string,
  file: string,
  opts: { durable?: boolean } = {},
): Promise<number> {
  if (blobs.putFile) return (await blobs.putFile(key, file, opts)).size;
  return (await blobs.put(key, fs.createReadStream(file, { highWaterMark: CHUNK }), opts)).size;
}

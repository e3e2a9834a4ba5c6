/**
 * Blob store on a local (or shared) directory: the key `a/b/c` is the file `<dir>/a/b/c`.
 *
 * Writes are atomic: a put streams into `<dir>/.tmp/<uuid>` (same filesystem), fsyncs it (unless
 * the put says it need not be durable) and renames it over the final path, so a reader sees the
 * old object or the new one, never a part. A reader that opened the old file keeps reading it to
 * the end (the open descriptor outlives the rename). On any failure the temp file is removed and a
 * previous object under the key is untouched.
 */
import { randomUUID } from 'node:crypto';
import { constants as fsConstants, createWriteStream, type Dirent } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, BadRequestError, ConflictError, NotFoundError, errorItem } from '@patchbay/contracts';
import type { BlobReader, BlobStat, BlobStore, ByteRange, PutOptions, ReadOptions } from './port';
import { assertKey, resolveRange } from './blob-checks';
import { OpenFiles, type OpenFile } from './open-files';
import { BlockCache } from './block-cache';
import { CachedFileReader, FileReader } from './dir-reader';
import { errorCode, fieldOf } from '../basics/error-fields';

export interface DirBlobStoreOptions {
  /** Root directory; created on first put. */
  dir: string;
  /**
   * Memory for recently read blocks of files read through a kept reader (`keepOpenMs` > 0: the file
   * server's small ranges); 0 or absent: none (BlockCache).
   */
  blockCacheBytes?: number;
}

const TMP = '.tmp';
const READ_CHUNK = 512 * 1024;

export class DirBlobStore implements BlobStore {
  private readonly dir: string;
  private readonly tmp: string;
  private readonly openFiles = new OpenFiles();
  private readonly blocks: BlockCache;
  private readonly paths = new Map<string, string>();

  constructor(opts: DirBlobStoreOptions) {
    this.blocks = new BlockCache(opts.blockCacheBytes ?? 0);
    this.dir = path.resolve(opts.dir);
    this.tmp = path.join(this.dir, TMP);
  }

  put(key: string, body: Readable, opts: PutOptions = {}): Promise<{ size: number }> {
    return this.write(key, (tmp, durable) => writeFile(tmp, body, durable), opts);
  }

  /** A kernel copy (copy_file_range, or a reflink where the filesystem has them) instead of a stream. */
  putFile(key: string, source: string, opts: PutOptions = {}): Promise<{ size: number }> {
    return this.write(key, (tmp, durable) => copyInto(source, tmp, durable), opts);
  }

  /** Writes a temp file with `fill`, then renames it over the key's path (fsyncs when durable). */
  private async write(
    key: string,
    fill: (tmp: string, durable: boolean) => Promise<number>,
    opts: PutOptions,
  ): Promise<{ size: number }> {
    const durable = opts.durable !== false;
    const file = this.pathFor(key);
    const tmp = path.join(this.tmp, randomUUID());
    try {
      await mkdir(this.tmp, { recursive: true });
      const size = await fill(tmp, durable);
      await mkdir(path.dirname(file), { recursive: true });
      await rename(tmp, file);
      this.openFiles.drop(file);
      if (durable) await syncDir(path.dirname(file));
      return { size };
    } catch (err) {
      await rm(tmp, { force: true });
      throw translate(err, key, 'write');
    }
  }

  /** The caller must read the stream to its end or destroy it: it holds an open file. */
  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathFor(key);
    let fh: FileHandle;
    try {
      fh = await open(file, 'r');
    } catch (err) {
      throw translate(err, key);
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw notFound(key);
      const r = resolveRange(range, st.size);
      // 512 KiB reads: fewer syscalls and socket writes than the 64 KiB default (whole-file downloads).
      return fh.createReadStream({ highWaterMark: READ_CHUNK, ...(r ? { start: r.start, end: r.end } : {}) });
    } catch (err) {
      await fh.close();
      throw translate(err, key);
    }
  }

  /** The file, kept open for `keepOpenMs` (see OpenFiles); each read is one positioned read. */
  async openReader(key: string, opts: ReadOptions = {}): Promise<BlobReader> {
    const file = this.pathFor(key);
    let f: OpenFile;
    try {
      f = await this.openFiles.acquire(file, opts.keepOpenMs ?? 0, opts.size);
    } catch (err) {
      throw translate(err, key);
    }
    if (!f.isFile) {
      this.openFiles.release(f);
      throw notFound(key);
    }
    // Only kept readers (the file server's small ranges) go through the block cache.
    return this.blocks.enabled && (opts.keepOpenMs ?? 0) > 0
      ? new CachedFileReader(f, this.openFiles, key, translate, this.blocks)
      : new FileReader(f, this.openFiles, key, translate);
  }

  /** The object's file, opened read-only (a rename over it later does not change what it reads). */
  async openFile(key: string): Promise<FileHandle> {
    let fh: FileHandle;
    try {
      fh = await open(this.pathFor(key), 'r');
    } catch (err) {
      throw translate(err, key);
    }
    const isFile = await fh.stat().then(
      (st) => st.isFile(),
      () => false,
    );
    if (isFile) return fh;
    await fh.close();
    throw notFound(key);
  }

  forgetOpen(match: (key: string) => boolean): void {
    this.openFiles.dropWhere((file) => match(path.relative(this.dir, file).split(path.sep).join('/')));
  }

  async close(): Promise<void> {
    this.openFiles.clear();
  }

  async stat(key: string): Promise<BlobStat> {
    const file = this.pathFor(key);
    try {
      const st = await stat(file);
      if (!st.isFile()) throw notFound(key);
      return { size: st.size, modified: new Date(st.mtimeMs) }; // a Date of the caller's realm, not fs's
    } catch (err) {
      throw translate(err, key);
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathFor(key);
    this.openFiles.drop(file);
    try {
      await unlink(file);
    } catch (err) {
      // Missing, or a directory (a key prefix, not an object): either way there is no such object.
      if (!['ENOENT', 'ENOTDIR', 'EISDIR', 'EPERM'].includes(errno(err) ?? '')) throw translate(err, key);
    }
  }

  /** Keys starting with `prefix`, depth first in name order; objects being written are not listed. */
  async *list(prefix: string): AsyncIterable<string> {
    const slash = prefix.lastIndexOf('/');
    const base = slash > 0 ? prefix.slice(0, slash) : '';
    if (base) this.pathFor(base);
    yield* this.walk(base, prefix);
  }

  /** Removes temp files older than `maxAgeMs` (left by a crash mid-put); returns how many. Run at start-up. */
  /** Port name of sweepTemp. */
  sweepIncomplete(olderThanMs: number): Promise<number> {
    return this.sweepTemp(olderThanMs);
  }

  async sweepTemp(maxAgeMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tmp);
    } catch (err) {
      if (errno(err) === 'ENOENT') return 0;
      throw translate(err, TMP);
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tmp, name);
      const st = await stat(file).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > maxAgeMs) {
        await rm(file, { force: true, recursive: true });
        removed += 1;
      }
    }
    return removed;
  }

  private async *walk(rel: string, prefix: string): AsyncIterable<string> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(this.dir, rel), { withFileTypes: true });
    } catch (err) {
      if (['ENOENT', 'ENOTDIR'].includes(errno(err) ?? '')) return;
      throw translate(err, rel);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === TMP) continue;
      if (e.isDirectory() && (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)))
        yield* this.walk(key, prefix);
      else if (e.isFile() && key.startsWith(prefix)) yield key;
    }
  }

  /** The file of a valid key, checked to resolve inside the root. */
  private pathFor(key: string): string {
    const known = this.paths.get(key);
    if (known) return known;
    assertKey(key);
    const file = path.resolve(this.dir, key);
    if (!file.startsWith(this.dir + path.sep)) throw BadRequestError.field('key', 'blob key escapes the store');
    // The same keys come again and again (ranges of one file): checked and resolved once.
    if (this.paths.size >= 4096) this.paths.clear();
    this.paths.set(key, file);
    return file;
  }
}

/**
 * Bytes a write may buffer before it pushes back on its source: with 1 MiB, chunks that arrive
 * while a write is in flight are gathered and written together (writev) instead of pausing the
 * sender after 16 KiB.
 */
const WRITE_BUFFER = 1024 * 1024;

/**
 * Streams `body` into a new `file` and resolves once it is closed (fsynced first with `sync`), with the bytes written.
 */
async function writeFile(file: string, body: Readable, sync: boolean): Promise<number> {
  // Opened before streaming, so the file exists before any failure and the caller's cleanup
  // cannot race a late open. `flush` fsyncs before close; pipeline() settles after the close.
  // (FileHandle.createWriteStream with autoClose: false would let us fsync ourselves, but then
  // FileHandle.close() never settles on Node 20: the stream keeps its reference to the handle.)
  const fd = await open(file, 'wx');
  const out = createWriteStream(file, { fd, flush: sync, highWaterMark: WRITE_BUFFER });
  await pipeline(body, out);
  return out.bytesWritten;
}

async function copyInto(source: string, tmp: string, sync: boolean): Promise<number> {
  await copyFile(source, tmp, fsConstants.COPYFILE_EXCL | fsConstants.COPYFILE_FICLONE);
  const fh = await open(tmp, 'r');
  try {
    if (sync) await fh.sync();
    return (await fh.stat()).size;
  } finally {
    await fh.close();
  }
}

/** Makes the rename itself durable. Best effort: not every platform can fsync a directory. */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r').catch(() => undefined);
  if (!fh) return;
  await fh.sync().catch(() => undefined);
  await fh.close();
}

function errno(err: unknown): string | undefined {
  const code = errorCode(err);
  return typeof code === 'string' ? code : undefined;
}

function notFound(key: string, cause?: unknown): NotFoundError {
  return new NotFoundError({ code: 'blob_not_found', errors: [errorItem(`no blob '${key}'`, 'key')], cause });
}

/**
 * Filesystem errors become contract errors; anything else (an ApiError, or the caller's own body
 * stream failing) passes through unchanged so the caller can tell its own failure from ours.
 * A path clash (`a` is an object and `a/b` is wanted, or the reverse) is a missing object when
 * reading and a ConflictError when writing.
 */
function translate(err: unknown, key: string, op: 'read' | 'write' = 'read'): unknown {
  if (err instanceof ApiError || typeof fieldOf(err, 'syscall') !== 'string') return err;
  const code = errno(err) ?? '';
  if (op === 'read' && ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(code)) return notFound(key, err);
  if (op === 'write' && ['EEXIST', 'ENOTDIR', 'EISDIR'].includes(code)) {
    return new ConflictError({
      errors: [errorItem(`blob key '${key}' clashes with another key's path`, 'key')],
      cause: err,
      message: 'blob key conflict',
    });
  }
  return new ApiError({ code: 'blob_store_error', message: 'blob store error', cause: err });
}

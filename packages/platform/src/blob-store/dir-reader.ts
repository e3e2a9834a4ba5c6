/**
 * The directory store's readers (BlobStore.openReader): positioned reads of one open file, and for
 * kept files the same through the block cache. Classes rather than closures: one is made for every
 * small range the file server sends.
 */
import { read as fsRead } from 'node:fs';
import type { BlobReader } from './port';
import type { OpenFile, OpenFiles } from './open-files';
import { BLOCK, type BlockCache } from './block-cache';

/** fs.read with a callback: no FileHandle, AbortSignal or promise wrapper per read. */
export function readAt(fd: number, into: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fsRead(fd, into, offset, length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );
}

/** Reads `length` bytes at `position` into `into`, fewer only where the file ends. */
export async function readFully(fd: number, into: Buffer, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const n = await readAt(fd, into, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

export class FileReader implements BlobReader {
  private open = true;

  /** `translate` turns a filesystem error into the store's error for `key`. */
  constructor(
    protected readonly file: OpenFile,
    private readonly files: OpenFiles,
    private readonly key: string,
    private readonly translate: (err: unknown, key: string) => unknown,
  ) {}

  get size(): number {
    return this.file.size;
  }

  async read(into: Buffer, position: number, length: number): Promise<number> {
    this.assertOpen();
    return readFully(this.file.fd, into, length, position).catch((err: unknown) => {
      throw this.failed(err);
    });
  }

  close(): void {
    if (this.open) this.files.release(this.file);
    this.open = false;
  }

  /** The store's error for a filesystem error of this reader. */
  protected failed(err: unknown): unknown {
    return this.translate(err, this.key);
  }

  protected assertOpen(): void {
    if (!this.open) throw new Error('the blob reader is closed');
  }
}

/** A kept file's reader: bytes from the block cache, the missing blocks read first (a positioned read each). */
export class CachedFileReader extends FileReader {
  constructor(
    file: OpenFile,
    files: OpenFiles,
    key: string,
    translate: (err: unknown, key: string) => unknown,
    private readonly blocks: BlockCache,
  ) {
    super(file, files, key, translate);
  }

  override async read(into: Buffer, position: number, length: number): Promise<number> {
    let n = 0;
    for (const part of await this.slices(position, length)) n += part.copy(into, n);
    return n;
  }

  async slices(position: number, length: number): Promise<Buffer[]> {
    this.assertOpen();
    const { identity, size, fd } = this.file;
    const n = Math.max(0, Math.min(length, size - position));
    if (n === 0) return [];
    const hit = this.blocks.slices(identity, position, n);
    if (hit) return hit;
    try {
      await Promise.all(
        this.blocks.missing(identity, position, n).map(async (i) => {
          const block = Buffer.allocUnsafeSlow(Math.min(BLOCK, size - i * BLOCK));
          if ((await readFully(fd, block, block.length, i * BLOCK)) !== block.length)
            throw new Error(`file ended before byte ${i * BLOCK + block.length} of ${size}`);
          this.blocks.put(identity, i, block);
        }),
      );
      // A budget smaller than this read evicts part of it at once: then it is read on its own.
      const again = this.blocks.slices(identity, position, n);
      if (again) return again;
      const own = Buffer.allocUnsafeSlow(n);
      return [own.subarray(0, await readFully(fd, own, n, position))];
    } catch (err) {
      throw this.failed(err);
    }
  }
}

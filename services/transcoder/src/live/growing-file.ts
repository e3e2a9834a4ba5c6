import fs from 'node:fs';

/**
 * ffmpeg's output of a streamed run, in a scratch file that grows as ffmpeg writes: appended in
 * order, and read back from any offset up to what has reached the file (`written`), so a listener
 * who joins late reads from the start what others already received. `onGrow` is called after each
 * append lands. Bounded by the disk, never by memory.
 */
export class GrowingFile {
  private handle: fs.promises.FileHandle | null = null;
  private tail: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** Bytes that have reached the file (readable). */
  written = 0;

  private constructor(
    readonly path: string,
    private readonly onGrow: () => void,
  ) {}

  static async create(path: string, onGrow: () => void): Promise<GrowingFile> {
    const file = new GrowingFile(path, onGrow);
    file.handle = await fs.promises.open(path, 'wx+', 0o600);
    return file;
  }

  /** Queues `chunk` after what came before; a failed write fails `flush()`. */
  append(chunk: Buffer): void {
    this.tail = this.tail.then(async () => {
      if (this.failure || !this.handle) return;
      try {
        let done = 0;
        while (done < chunk.length) {
          const { bytesWritten } = await this.handle.write(chunk, done, chunk.length - done, this.written + done);
          done += bytesWritten;
        }
        this.written += chunk.length;
        this.onGrow();
      } catch (err) {
        this.failure = err;
      }
    });
  }

  /** Settles once every append has landed; rejects with the first write's failure. */
  async flush(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }

  /** Up to `max` bytes from `offset` of what has been written (empty when none yet). */
  async read(offset: number, max: number): Promise<Buffer> {
    const length = Math.min(max, this.written - offset);
    if (length <= 0 || !this.handle) return Buffer.alloc(0);
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.handle.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead);
  }

  async close(): Promise<void> {
    await this.tail;
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }
}

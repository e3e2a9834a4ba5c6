import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** Inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  /**
   * false: the object need not survive a machine crash (power loss) — for copies that can be made
   * again, such as download-time transcodes. Still atomic for readers, and still survives the
   * process crashing. Adapters that are durable anyway ignore it. Default true.
   */
  durable?: boolean;
}

export interface ReadOptions {
  /** How long the object may stay open for the next read (ms); 0 or absent: closed after this read. */
  keepOpenMs?: number;
  /** The object's size as the caller knows it: an object kept open with another size is reopened. */
  size?: number;
}

/** An object open for positioned reads (BlobStore.openReader). */
export interface BlobReader {
  /** The object's size when it was opened. */
  readonly size: number;
  /**
   * Reads up to `length` bytes at `position` into `into` from its offset 0; resolves with the bytes read (fewer only at
   * the end).
   */
  read(into: Buffer, position: number, length: number): Promise<number>;
  /**
   * Optional (a reader that keeps blocks in memory): the bytes at `position` as buffers the reader
   * never changes, to be written as they are instead of copied; fewer bytes only at the end.
   */
  slices?(position: number, length: number): Promise<Buffer[]>;
  /** Ends this use of the object (idempotent). */
  close(): void;
}

export interface BlobStat {
  size: number;
  modified: Date;
}

/**
 * The blob store: whole objects under string keys (`[A-Za-z0-9._/-]`, no `..`).
 * Writes are atomic: a reader sees either nothing or the whole object, never a part.
 */
export interface BlobStore {
  /** Streams `body` into `key`, replacing any previous object. Resolves with the bytes written. */
  put(key: string, body: Readable, opts?: PutOptions): Promise<{ size: number }>;
  /**
   * Stores the local file `file` under `key`, as `put` would stream it. Optional: an adapter that
   * can copy a file faster than a stream (the directory store: a kernel copy) offers it.
   */
  putFile?(key: string, file: string, opts?: PutOptions): Promise<{ size: number }>;
  /**
   * A stream of the object, or of `range` of it. NotFoundError when missing; RangeNotSatisfiableError when `range` is
   * outside the object.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Optional, for adapters with cheap positioned reads (the directory store): the object opened for
   * reading, the same bytes for as long as the reader is open (a put meanwhile does not change
   * them). For replies where a stream costs more than the bytes: a small range in one read into a
   * reused buffer, a whole file through two reused buffers. `keepOpenMs`: the adapter may keep the
   * object open that long for the next reader (its own put/delete and `forgetOpen` drop it sooner);
   * `size`: the size the caller knows, so an object kept open but replaced since is reopened.
   * Resolves undefined for a key the adapter does not hold itself (an external container's, in the
   * routed store): the caller streams it with `get`. NotFoundError as `get`.
   */
  openReader?(key: string, opts?: ReadOptions): Promise<BlobReader | undefined>;
  /**
   * Optional, for adapters whose objects are local files (the directory store): the object opened
   * read-only, for a child process to read through its own descriptor (ffmpeg's stdin) without this
   * process copying the bytes. The same bytes for as long as it is open; the caller closes it.
   * Resolves undefined for a key the adapter does not hold as a local file (an external container's,
   * in the routed store): the caller streams it with `get`. NotFoundError as `get`.
   */
  openFile?(key: string): Promise<FileHandle | undefined>;
  /**
   * Optional, with `openReader`: drops what `openReader` keeps open for the keys `match` accepts (they changed
   * elsewhere).
   */
  forgetOpen?(match: (key: string) => boolean): void;
  /** NotFoundError when missing. */
  stat(key: string): Promise<BlobStat>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes what interrupted writes left behind (temp files, orphan chunks) older than
   * `olderThanMs`; returns how many were removed. Run at start-up and periodically.
   */
  sweepIncomplete?(olderThanMs: number): Promise<number>;
  /** Keys under `prefix` (for orphan sweeps). */
  list?(prefix: string): AsyncIterable<string>;
  close?(): Promise<void>;
}

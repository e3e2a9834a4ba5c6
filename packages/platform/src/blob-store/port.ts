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
  /** A stream of the object, or of `range` of it. NotFoundError when missing; RangeNotSatisfiableError when `range` is outside the object. */
  get(key: string, range?: ByteRange): Promise<Readable>;
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

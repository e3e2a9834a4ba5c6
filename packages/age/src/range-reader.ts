/**
 * Plaintext ranges of an age file that lives elsewhere (behind HTTP Range requests): the header is
 * fetched once to recover the payload key, then only the chunks holding the wanted bytes. Each
 * chunk is authenticated on its own — its position is in its nonce, and the last chunk is opened
 * as the last — so a range read verifies exactly what it returns, and a wrong `file_bytes` or an
 * altered chunk fails rather than returning wrong bytes.
 */
import type { KeyObject } from 'node:crypto';
import { AgeFormatError, AgeIntegrityError } from './errors';
import { openFileKey } from './file-key';
import { CHUNK_SIZE, PAYLOAD_NONCE_SIZE, SEALED_CHUNK_SIZE } from './format';
import { parseHeader } from './header';
import { type AgeLayout, chunkOffset, ciphertextRange, payloadShape } from './layout';
import { openChunk, payloadKey } from './payload';
import type { Identity } from './stanza';

/** Fetches bytes `start` through `end` (inclusive, as an HTTP Range header) of the age file. */
export type FetchRange = (start: number, end: number) => Promise<Uint8Array>;

export interface RangeReaderOptions extends AgeLayout {
  readonly fetchRange: FetchRange;
  readonly identities: readonly Identity[];
  /** Chunks fetched per request (default 16, i.e. about 1 MiB): bounds memory for long ranges. */
  readonly chunksPerFetch?: number;
}

async function fetchExactly(fetchRange: FetchRange, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.from(await fetchRange(start, end));
  if (bytes.length !== end - start + 1) {
    throw new AgeIntegrityError(`bytes ${start}-${end} came back as ${bytes.length} bytes: the file is shorter`);
  }
  return bytes;
}

export class AgeRangeReader {
  private constructor(
    private readonly options: RangeReaderOptions,
    private readonly key: KeyObject,
    private readonly chunkCount: number,
    /** The plaintext's size, from the layout. */
    readonly plaintextBytes: number,
  ) {}

  /** Fetches and verifies the header (and payload nonce), and recovers the payload key. */
  static async open(options: RangeReaderOptions): Promise<AgeRangeReader> {
    const { chunks, plaintextBytes } = payloadShape(options);
    const head = await fetchExactly(options.fetchRange, 0, options.header_bytes + PAYLOAD_NONCE_SIZE - 1);
    const header = parseHeader(head);
    if (!header || header.headerBytes !== options.header_bytes) {
      throw new AgeFormatError('header_bytes does not match the header of the file');
    }
    const fileKey = openFileKey(header, options.identities);
    const key = payloadKey(fileKey, head.subarray(options.header_bytes));
    return new AgeRangeReader(options, key, chunks, plaintextBytes);
  }

  /** Plaintext bytes `start` through `end` (inclusive, clamped to the end), a few chunks at a time. */
  async *chunks(start: number, end: number): AsyncGenerator<Buffer> {
    const range = ciphertextRange(this.options, start, end);
    if (!range) return;
    const perFetch = Math.max(1, this.options.chunksPerFetch ?? 16);
    for (let first = range.firstChunk; first <= range.lastChunk; first += perFetch) {
      const last = Math.min(first + perFetch - 1, range.lastChunk);
      const from = chunkOffset(this.options, first);
      const to = Math.min(chunkOffset(this.options, last + 1), this.options.file_bytes) - 1;
      const sealed = await fetchExactly(this.options.fetchRange, from, to);
      for (let index = first; index <= last; index++) {
        const at = (index - first) * SEALED_CHUNK_SIZE;
        const plaintext = openChunk(
          this.key,
          index,
          index === this.chunkCount - 1,
          sealed.subarray(at, at + SEALED_CHUNK_SIZE),
        );
        if (!plaintext) throw new AgeIntegrityError(`chunk #${index} does not verify: the file was altered`);
        const base = index * CHUNK_SIZE;
        const slice = plaintext.subarray(
          Math.max(range.plaintextStart - base, 0),
          Math.min(range.plaintextEnd - base + 1, plaintext.length),
        );
        if (slice.length > 0) yield slice;
      }
    }
  }

  /** Plaintext bytes `start` through `end` as one buffer (empty past the end). */
  async read(start: number, end: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of this.chunks(start, end)) parts.push(part);
    return Buffer.concat(parts);
  }
}

/** One plaintext range of a remote age file: opens a reader, reads, done. */
export async function readPlaintextRange(options: RangeReaderOptions, start: number, end: number): Promise<Buffer> {
  return (await AgeRangeReader.open(options)).read(start, end);
}

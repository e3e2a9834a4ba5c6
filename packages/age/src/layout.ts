/**
 * Where plaintext lives in an age file, from two numbers a stored file's metadata carries:
 * `header_bytes` and the file's size. Chunk i (64 KiB of plaintext) is stored at
 * `header_bytes + 16 + i × 65552`, 65,552 bytes long except the last, which holds the rest.
 * Pure arithmetic: no I/O, no keys.
 */
import { AgeFormatError } from './errors';
import { CHUNK_SIZE, PAYLOAD_NONCE_SIZE, SEALED_CHUNK_SIZE, TAG_SIZE } from './format';

export interface AgeLayout {
  /** The header through its MAC line (a stored file's `encryption.header_bytes`). */
  readonly header_bytes: number;
  /** The whole age file's size (a stored file's `file_bytes`). */
  readonly file_bytes: number;
}

/** The stored bytes that hold a plaintext range, and which chunks those are. */
export interface CiphertextRange {
  /** First and last byte of the age file to fetch, inclusive (as in an HTTP Range header). */
  readonly start: number;
  readonly end: number;
  /** Indexes of the first and last chunk in the range. */
  readonly firstChunk: number;
  readonly lastChunk: number;
  /** The plaintext range served, inclusive: the request clamped to the plaintext's size. */
  readonly plaintextStart: number;
  readonly plaintextEnd: number;
}

/** How many chunks the file has and how much plaintext; AgeFormatError if no age file has that layout. */
export function payloadShape(layout: AgeLayout): { chunks: number; plaintextBytes: number } {
  const { header_bytes: header, file_bytes: size } = layout;
  if (!Number.isSafeInteger(header) || !Number.isSafeInteger(size) || header <= 0) {
    throw new AgeFormatError('header_bytes and file_bytes must be positive integers');
  }
  const payload = size - header - PAYLOAD_NONCE_SIZE;
  if (payload < TAG_SIZE) throw new AgeFormatError('file_bytes is too small for an age file with this header');
  const chunks = Math.ceil(payload / SEALED_CHUNK_SIZE);
  const last = payload - (chunks - 1) * SEALED_CHUNK_SIZE;
  if (last < TAG_SIZE || (last === TAG_SIZE && chunks > 1)) {
    throw new AgeFormatError('file_bytes is not the size of any age file with this header');
  }
  return { chunks, plaintextBytes: payload - chunks * TAG_SIZE };
}

/** The offset in the age file where chunk `index` starts. */
export function chunkOffset(layout: AgeLayout, index: number): number {
  return layout.header_bytes + PAYLOAD_NONCE_SIZE + index * SEALED_CHUNK_SIZE;
}

/**
 * The stored bytes holding plaintext bytes `start` through `end` (inclusive; `end` is clamped to
 * the last byte), or null when the range holds no byte (it starts at or past the end, or the file
 * is empty). RangeError for a negative, fractional or inverted range.
 */
export function ciphertextRange(layout: AgeLayout, start: number, end: number): CiphertextRange | null {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`not a byte range: ${start}-${end}`);
  }
  const { plaintextBytes } = payloadShape(layout);
  if (start >= plaintextBytes) return null;
  const plaintextEnd = Math.min(end, plaintextBytes - 1);
  const firstChunk = Math.floor(start / CHUNK_SIZE);
  const lastChunk = Math.floor(plaintextEnd / CHUNK_SIZE);
  return {
    start: chunkOffset(layout, firstChunk),
    end: Math.min(chunkOffset(layout, lastChunk + 1), layout.file_bytes) - 1,
    firstChunk,
    lastChunk,
    plaintextStart: start,
    plaintextEnd,
  };
}

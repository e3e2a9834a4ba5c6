/**
 * The payload (https://age-encryption.org/v1, "Payload"): a 16-byte nonce, then the plaintext in
 * 64 KiB chunks, each sealed with ChaCha20-Poly1305 under HKDF(file key, nonce, "payload") with
 * the STREAM nonce — an 11-byte big-endian chunk counter and a last-chunk flag byte. Every chunk
 * but the last is full; the last may be full too, and is empty only when the whole plaintext is.
 * The flag makes truncation at a chunk boundary detectable; the counter, reordering.
 */
import type { KeyObject } from 'node:crypto';
import { CHUNK_SIZE, TAG_SIZE } from './format';
import { cipherKey, hkdf, open, sealPieces } from './primitives';

/** The payload key, as a KeyObject: every chunk of the file is sealed or opened with it. */
export function payloadKey(fileKey: Buffer, payloadNonce: Uint8Array): KeyObject {
  return cipherKey(hkdf(fileKey, payloadNonce, 'payload'));
}

/**
 * The nonce of chunk `counter`, written into one buffer reused for every chunk: a cipher copies
 * its nonce when it is made, and each use below makes its cipher at once (no allocation per chunk).
 */
const nonce = Buffer.alloc(12);
function chunkNonce(counter: number, last: boolean): Buffer {
  // The 11-byte big-endian counter: 3 zero bytes, then the (safe-integer) counter in 8 bytes.
  nonce.fill(0, 0, 3);
  nonce.writeUInt32BE(Math.floor(counter / 2 ** 32), 3);
  nonce.writeUInt32BE(counter >>> 0, 7);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** Seals chunk `counter` given as plaintext pieces: the ciphertext pieces, then the tag (nothing copied). */
export function sealChunk(key: KeyObject, counter: number, last: boolean, pieces: readonly Uint8Array[]): Buffer[] {
  return sealPieces(key, chunkNonce(counter, last), pieces);
}

/** The plaintext of chunk `counter`, or null when its tag (with this counter and flag) does not verify. */
export function openChunk(key: KeyObject, counter: number, last: boolean, sealed: Uint8Array): Buffer | null {
  if (sealed.length > CHUNK_SIZE + TAG_SIZE) return null;
  return open(key, chunkNonce(counter, last), sealed);
}

/**
 * The cryptographic primitives age v1 is built from, as thin wrappers over node:crypto (OpenSSL):
 * HKDF-SHA-256, HMAC-SHA-256, SHA-256 and ChaCha20-Poly1305 with a 16-byte tag. Native code keeps
 * the payload near memory speed (a pure-JS ChaCha20 is several times slower).
 */
import crypto from 'node:crypto';
import { TAG_SIZE } from './format';

/**
 * A ChaCha20-Poly1305 key: bytes, or a KeyObject made from them once (`cipherKey`). A cipher made
 * from bytes builds a KeyObject of its own each time — about a quarter of a 64 KiB chunk's seal
 * (profiled) — so a key used for every chunk of a file is made into one first.
 */
export type CipherKey = Uint8Array | crypto.KeyObject;

/** `key` as a KeyObject, for a key that seals or opens many messages (a file's payload key). */
export function cipherKey(key: Uint8Array): crypto.KeyObject {
  return crypto.createSecretKey(key);
}

/** HKDF-SHA-256 to a 32-byte key, as every age key derivation does. */
export function hkdf(ikm: Uint8Array, salt: Uint8Array, info: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, 32));
}

export function hmacSha256(key: Uint8Array, data: Uint8Array): Buffer {
  return crypto.createHmac('sha256', key).update(data).digest();
}

export function sha256(data: Uint8Array): Buffer {
  return crypto.createHash('sha256').update(data).digest();
}

/** At most this much ciphertext is copied per message, to put the tag after it in one buffer. */
const TAIL_BYTES = 4096;

/**
 * ChaCha20-Poly1305 seal of a message given in pieces: the ciphertext of each piece, and last a
 * buffer with the final (at most 4 KiB) ciphertext bytes and the 16-byte tag. Joining the tag to
 * the whole last piece would copy up to 64 KiB per chunk (a quarter of the encrypter's time, in a
 * profile); passing it alone would hand consumers a 16-byte write per chunk.
 */
export function sealPieces(key: CipherKey, nonce: Uint8Array, pieces: readonly Uint8Array[]): Buffer[] {
  const cipher = crypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG_SIZE });
  const out: Buffer[] = [];
  pieces.forEach((piece, index) => {
    const split = index === pieces.length - 1 ? Math.max(0, piece.length - TAIL_BYTES) : piece.length;
    if (split > 0) out.push(cipher.update(piece.subarray(0, split)));
    if (split < piece.length) out.push(cipher.update(piece.subarray(split)));
  });
  const last = out.length > 0 && out[out.length - 1].length <= TAIL_BYTES ? out.pop() : undefined;
  // final() is empty for a stream cipher; kept in the output in case OpenSSL ever holds bytes back.
  out.push(Buffer.concat([last ?? Buffer.alloc(0), cipher.final(), cipher.getAuthTag()]));
  return out;
}

/** ChaCha20-Poly1305 seal: ciphertext followed by its 16-byte tag, in one buffer. */
export function seal(key: CipherKey, nonce: Uint8Array, plaintext: Uint8Array): Buffer {
  return Buffer.concat(sealPieces(key, nonce, [plaintext]));
}

/**
 * ChaCha20-Poly1305 open: the plaintext, or null when the tag does not verify. The plaintext is
 * returned only after `final()` has checked the tag, never before.
 */
export function open(key: CipherKey, nonce: Uint8Array, sealed: Uint8Array): Buffer | null {
  if (sealed.length < TAG_SIZE) return null;
  const decipher = crypto.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG_SIZE });
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_SIZE));
  const head = decipher.update(sealed.subarray(0, sealed.length - TAG_SIZE));
  try {
    const tail = decipher.final();
    return tail.length === 0 ? head : Buffer.concat([head, tail]);
  } catch {
    return null;
  }
}

/**
 * Raw 32-byte X25519 keys to and from node:crypto KeyObjects. Node imports X25519 keys only as
 * DER (or as a JWK that needs the public half too), so raw keys get the fixed RFC 8410 prefixes.
 */
import crypto, { type KeyObject } from 'node:crypto';

const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

export function x25519PublicKey(raw: Uint8Array): KeyObject {
  return crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function x25519PrivateKey(raw: Uint8Array): KeyObject {
  return crypto.createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
}

/** The raw 32 bytes of an X25519 public key (the last 32 bytes of its SPKI encoding). */
export function rawX25519Public(key: KeyObject): Buffer {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

/**
 * X25519(secret, point). Null when the result is all zeros (a low-order point: age requires
 * refusing it); OpenSSL throws for that case itself, and both end the same way.
 */
export function x25519(privateKey: KeyObject, publicKey: KeyObject): Buffer | null {
  let shared: Buffer;
  try {
    shared = crypto.diffieHellman({ privateKey, publicKey });
  } catch {
    return null;
  }
  return shared.every((b) => b === 0) ? null : shared;
}

/** A fixed key to probe points with: any clamped scalar sends exactly the low-order points to zero. */
const PROBE = crypto.generateKeyPairSync('x25519').privateKey;

/**
 * Whether a raw X25519 public key is a point of small order (0, 1, p−1, the two points of order 8, and
 * their equivalents such as p and p+1): every shared secret with it is all zeros, so nothing can ever
 * be encrypted to it (age refuses such a share). Clamping makes every scalar a multiple of 8, so one
 * X25519 with any key tells: zero exactly for these points, whatever the key.
 */
export function isLowOrderX25519(raw: Uint8Array): boolean {
  return x25519(PROBE, x25519PublicKey(raw)) === null;
}

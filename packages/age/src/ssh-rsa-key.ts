/**
 * An RSA public key as OpenSSH writes it (`ssh-rsa AAAA… [comment]`): parsed, checked, and turned
 * into what age and a key list need — a node:crypto KeyObject, the modulus size, the wire-format
 * blob, ssh-keygen's fingerprint and age's 4-byte stanza tag.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { base64 } from '@scure/base';
import { AgeKeyError, asError } from './errors';
import { encodeBase64 } from './format';
import { sha256 } from './primitives';
import { bitLength, sshMpint, sshString, SshWireReader } from './ssh-wire';

/** age and its Go library refuse smaller keys; so does Patchbay's interface. */
export const MIN_RSA_BITS = 2048;
/** Larger keys only cost time (every decryption is one private-key operation); OpenSSH caps them here too. */
export const MAX_RSA_BITS = 16384;

export interface SshRsaPublicKey {
  readonly key: KeyObject;
  readonly bits: number;
  /** The SSH wire encoding: string "ssh-rsa", mpint e, mpint n. */
  readonly blob: Buffer;
  /** As `ssh-keygen -l -E sha256` prints it: `SHA256:` and the unpadded base64 SHA-256 of the blob. */
  readonly fingerprint: string;
  /** age's stanza tag: the unpadded base64 of the first 4 bytes of the blob's SHA-256. */
  readonly tag: string;
}

/** Builds the key from its modulus and exponent (unsigned big-endian), checking size, parity and exponent. */
export function sshRsaPublicKey(n: Buffer, e: Buffer): SshRsaPublicKey {
  const bits = bitLength(n);
  if (bits < MIN_RSA_BITS) {
    throw new AgeKeyError(`the RSA key has ${bits} bits; at least ${MIN_RSA_BITS} are required`);
  }
  if (bits > MAX_RSA_BITS) throw new AgeKeyError(`the RSA key has ${bits} bits; at most ${MAX_RSA_BITS} are allowed`);
  // An RSA modulus is a product of two odd primes; an even one is no key (nothing encrypted to it can be opened).
  if ((n[n.length - 1] & 1) === 0) throw new AgeKeyError('the RSA modulus is even, so it is not an RSA key');
  // Go's ssh package (and so age) accepts an odd public exponent of at most 24 bits, 3 or more.
  const exponent = e.length > 0 && e.length <= 3 ? e.readUIntBE(0, e.length) : 0;
  if (exponent < 3 || exponent % 2 === 0) throw new AgeKeyError('the RSA key has an unusable public exponent');
  const key = crypto.createPublicKey({
    key: { kty: 'RSA', n: n.toString('base64url'), e: e.toString('base64url') },
    format: 'jwk',
  });
  const blob = Buffer.concat([sshString(Buffer.from('ssh-rsa')), sshMpint(e), sshMpint(n)]);
  const digest = sha256(blob);
  return { key, bits, blob, fingerprint: `SHA256:${encodeBase64(digest)}`, tag: encodeBase64(digest.subarray(0, 4)) };
}

/** Reads the base64 blob of an `ssh-rsa` line. */
export function parseSshRsaBlob(text: string): SshRsaPublicKey {
  let blob: Buffer;
  try {
    blob = Buffer.from(base64.decode(text));
  } catch {
    throw new AgeKeyError('the ssh-rsa key data is not valid base64');
  }
  try {
    const reader = new SshWireReader(blob, 'the ssh-rsa key data');
    const type = reader.string().toString('latin1');
    if (type !== 'ssh-rsa') throw new AgeKeyError(`the key data is of type "${type}", not ssh-rsa`);
    const e = reader.unsignedMpint();
    const n = reader.unsignedMpint();
    reader.end();
    return sshRsaPublicKey(n, e);
  } catch (err) {
    if (err instanceof AgeKeyError) throw err;
    throw new AgeKeyError(asError(err).message, { cause: err });
  }
}

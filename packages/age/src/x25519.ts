/**
 * The native age recipient type: an X25519 public key, written `age1…` (Bech32, HRP `age`), and its
 * identity `AGE-SECRET-KEY-1…` (https://age-encryption.org/v1, "The X25519 recipient type").
 *
 * Wrapping: an ephemeral share E, shared = X25519(e, recipient), key = HKDF-SHA-256(shared,
 * salt = E ‖ recipient, "age-encryption.org/v1/X25519"), body = ChaCha20-Poly1305(key, zero nonce,
 * file key). Stanza: `-> X25519 <base64 E>`.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { bech32 } from '@scure/base';
import { AgeFormatError, AgeKeyError } from './errors';
import { decodeBase64, encodeBase64, FILE_KEY_SIZE } from './format';
import { hkdf, open, seal, sha256 } from './primitives';
import type { Identity, Recipient, Stanza } from './stanza';
import { isLowOrderX25519, rawX25519Public, x25519, x25519PrivateKey, x25519PublicKey } from './x25519-keys';

const LABEL = 'age-encryption.org/v1/X25519';
const ZERO_NONCE = Buffer.alloc(12);
const RECIPIENT_HRP = 'age';
const IDENTITY_HRP = 'age-secret-key-';

/** `SHA256:<unpadded base64>` of the raw 32-byte public key: the age analogue of ssh-keygen's. */
function fingerprintOf(raw: Uint8Array): string {
  return `SHA256:${encodeBase64(sha256(raw))}`;
}

/** Decodes a Bech32 string with the given HRP into exactly 32 bytes; `what` names it in errors. */
function decode32(text: string, hrp: string, what: string): Buffer {
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(text as `${string}1${string}`, 100); // cast: the template type is only a hint
  } catch {
    // The library's message can quote the input, which for an identity is the secret key itself.
    throw new AgeKeyError(`${what} is not valid Bech32 (a character is wrong, missing or extra, or the case is mixed)`);
  }
  if (decoded.prefix !== hrp) throw new AgeKeyError(`${what} has the prefix "${decoded.prefix}", not "${hrp}"`);
  const data = bech32.fromWordsUnsafe(decoded.words);
  if (!data) throw new AgeKeyError(`${what} is not valid Bech32 (its data does not end on a byte boundary)`);
  const bytes = Buffer.from(data);
  if (bytes.length !== 32) throw new AgeKeyError(`${what} holds ${bytes.length} bytes, not a 32-byte X25519 key`);
  return bytes;
}

export class X25519Recipient implements Recipient {
  readonly key_type = 'age-x25519';
  readonly public_key: string;
  readonly fingerprint: string;
  private readonly key: KeyObject;

  constructor(private readonly raw: Buffer) {
    this.public_key = bech32.encode(RECIPIENT_HRP, bech32.toWords(raw), 100);
    this.fingerprint = fingerprintOf(raw);
    this.key = x25519PublicKey(raw);
  }

  wrap(fileKey: Buffer): Stanza {
    const ephemeral = crypto.generateKeyPairSync('x25519');
    const share = rawX25519Public(ephemeral.publicKey);
    const shared = x25519(ephemeral.privateKey, this.key);
    if (!shared) throw new AgeKeyError('the X25519 recipient is a low-order point');
    const wrapKey = hkdf(shared, Buffer.concat([share, this.raw]), LABEL);
    return { type: 'X25519', args: [encodeBase64(share)], body: seal(wrapKey, ZERO_NONCE, fileKey) };
  }
}

export class X25519Identity implements Identity {
  readonly key_type = 'age-x25519';
  readonly fingerprint: string;
  private readonly secret: KeyObject;
  private readonly ownPublic: Buffer;

  constructor(secretRaw: Buffer) {
    this.secret = x25519PrivateKey(secretRaw);
    this.ownPublic = rawX25519Public(crypto.createPublicKey(this.secret));
    this.fingerprint = fingerprintOf(this.ownPublic);
  }

  unwrap(stanzas: readonly Stanza[]): Buffer | null {
    for (const stanza of stanzas) {
      if (stanza.type !== 'X25519') continue;
      if (stanza.args.length !== 1) throw new AgeFormatError('an X25519 stanza must have exactly one argument');
      const share = decodeBase64(stanza.args[0], 'an X25519 share');
      if (share.length !== 32) throw new AgeFormatError('an X25519 share must be 32 bytes');
      if (stanza.body.length !== FILE_KEY_SIZE + 16) throw new AgeFormatError('an X25519 stanza body must be 32 bytes');
      const shared = x25519(this.secret, x25519PublicKey(share));
      if (!shared) throw new AgeFormatError('an X25519 stanza carries a low-order share');
      const wrapKey = hkdf(shared, Buffer.concat([share, this.ownPublic]), LABEL);
      const fileKey = open(wrapKey, ZERO_NONCE, stanza.body);
      if (fileKey) return fileKey;
    }
    return null;
  }
}

/**
 * Parses an `age1…` recipient (all lower or all upper case, as Bech32 allows; stored lower case). A
 * low-order point (the all-zero key and the few like it) is refused: nothing can be encrypted to it.
 */
export function parseX25519Recipient(text: string): X25519Recipient {
  const raw = decode32(text, RECIPIENT_HRP, 'the age recipient');
  if (isLowOrderX25519(raw))
    throw new AgeKeyError(
      'the age recipient is a low-order X25519 point (such as all zeros): nothing can be encrypted to it',
    );
  return new X25519Recipient(raw);
}

/** Parses one `AGE-SECRET-KEY-1…` line. Error messages never repeat the key. */
export function parseX25519Identity(text: string): X25519Identity {
  return new X25519Identity(decode32(text, IDENTITY_HRP, 'the age identity'));
}

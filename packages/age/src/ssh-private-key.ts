/**
 * An unencrypted RSA private key as ssh-keygen writes it: the OpenSSH format (`-----BEGIN OPENSSH
 * PRIVATE KEY-----`, the default since OpenSSH 7.8; node:crypto cannot read it, so its container is
 * unpacked here — PROTOCOL.key in OpenSSH's sources) or PEM (`ssh-keygen -m PEM`: PKCS#1 or
 * PKCS#8, which node:crypto reads). Passphrase-protected keys are refused with a way out: age
 * itself asks for the passphrase, a service never can. Error messages never quote key material.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { AgeKeyError } from './errors';
import { sshRsaPublicKey, type SshRsaPublicKey } from './ssh-rsa-key';
import { SshWireReader } from './ssh-wire';

const OPENSSH_MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');
const ENCRYPTED = 'the SSH private key is passphrase-protected: remove the passphrase on a copy (ssh-keygen -p)';

export interface SshRsaPrivateKey {
  readonly pub: SshRsaPublicKey;
  readonly key: KeyObject;
}

const toBigInt = (b: Buffer): bigint => (b.length === 0 ? 0n : BigInt(`0x${b.toString('hex')}`));
function toBase64Url(n: bigint): string {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex').toString('base64url');
}

/** The key of an OpenSSH-format container (its base64 body already decoded). */
function fromOpenSsh(container: Buffer): KeyObject {
  if (!container.subarray(0, OPENSSH_MAGIC.length).equals(OPENSSH_MAGIC)) {
    throw new Error('not an openssh-key-v1 container');
  }
  const outer = new SshWireReader(container.subarray(OPENSSH_MAGIC.length), 'the OpenSSH private key');
  const cipher = outer.string().toString('latin1');
  outer.string(); // kdf name
  outer.string(); // kdf options
  if (cipher !== 'none') throw new AgeKeyError(ENCRYPTED);
  if (outer.uint32() !== 1) throw new Error('an OpenSSH private key file must hold exactly one key');
  outer.string(); // the public key, repeated inside the private section
  const inner = new SshWireReader(outer.string(), 'the OpenSSH private key');
  outer.end();
  if (inner.uint32() !== inner.uint32()) throw new Error('check bytes differ');
  const type = inner.string().toString('latin1');
  if (type !== 'ssh-rsa') throw new AgeKeyError(`"${type}" private keys are not supported: use an ssh-rsa key`);
  const next = () => toBigInt(inner.unsignedMpint());
  const [n, e, d, iqmp, p, q] = [next(), next(), next(), next(), next(), next()];
  // The OpenSSH form omits the CRT exponents a JWK (and so node:crypto) needs; derive them.
  const b64 = toBase64Url;
  const jwk = { kty: 'RSA', n: b64(n), e: b64(e), d: b64(d), p: b64(p), q: b64(q) };
  const crt = { dp: b64(d % (p - 1n)), dq: b64(d % (q - 1n)), qi: b64(iqmp) };
  return crypto.createPrivateKey({ key: { ...jwk, ...crt }, format: 'jwk' });
}

/** Parses the text of an unencrypted ssh-rsa private key file into the key and its public half. */
export function parseSshRsaPrivateKey(text: string): SshRsaPrivateKey {
  let key: KeyObject;
  try {
    const openssh = /-----BEGIN OPENSSH PRIVATE KEY-----([^-]*)-----END OPENSSH PRIVATE KEY-----/.exec(text);
    if (openssh) key = fromOpenSsh(Buffer.from(openssh[1].replace(/\s+/g, ''), 'base64'));
    else if (/ENCRYPTED/.test(text)) throw new AgeKeyError(ENCRYPTED);
    else key = crypto.createPrivateKey({ key: text, format: 'pem' });
  } catch (err) {
    if (err instanceof AgeKeyError) throw err;
    throw new AgeKeyError('the SSH private key could not be read (expected an unencrypted ssh-rsa key)', {
      cause: err,
    });
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new AgeKeyError(`"${key.asymmetricKeyType}" private keys are not supported: use an ssh-rsa key`);
  }
  const { n, e } = crypto.createPublicKey(key).export({ format: 'jwk' });
  if (!n || !e) throw new AgeKeyError('the SSH private key has no RSA modulus'); // unreachable for an RSA key
  return { key, pub: sshRsaPublicKey(Buffer.from(n, 'base64url'), Buffer.from(e, 'base64url')) };
}

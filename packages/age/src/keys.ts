/**
 * The two entry points for key text a person pastes or a file holds: a public key (what a
 * partner registers) and identities (what a partner decrypts with). Both say what was expected
 * when the text is something else, and never repeat secret material in an error.
 */
import { AgeKeyError } from './errors';
import type { Identity, Recipient } from './stanza';
import { parseSshRsaPrivateKey } from './ssh-private-key';
import { parseSshRsaRecipient, SshRsaIdentity } from './ssh-rsa';
import { parseX25519Identity, parseX25519Recipient } from './x25519';

const EXPECTED = 'expected an age X25519 recipient (age1…) or an SSH RSA public key (ssh-rsa AAAA…)';

/**
 * Parses and validates a public key: an age X25519 recipient `age1…`, or an OpenSSH RSA public key
 * `ssh-rsa AAAA… [comment]` of 2048 to 16384 bits. Throws AgeKeyError saying why it is refused.
 */
export function parseRecipient(text: string): Recipient {
  const trimmed = text.trim();
  if (trimmed === '') throw new AgeKeyError(`the key is empty; ${EXPECTED}`);
  if (/[\r\n]/.test(trimmed)) throw new AgeKeyError(`the key spans several lines; ${EXPECTED}`);
  if (/^age1/i.test(trimmed)) return parseX25519Recipient(trimmed);
  if (/^ssh-rsa[ \t]/.test(trimmed)) return parseSshRsaRecipient(trimmed);
  const type = /^(ssh-[\w.@-]+|ecdsa-[\w.@-]+|sk-[\w.@-]+)[ \t]/.exec(trimmed)?.[1];
  if (type) throw new AgeKeyError(`"${type}" keys are not supported; ${EXPECTED}`);
  if (/^AGE-SECRET-KEY-/i.test(trimmed)) throw new AgeKeyError(`that is a secret key, never share it; ${EXPECTED}`);
  throw new AgeKeyError(`the key is not recognised; ${EXPECTED}`);
}

/**
 * Parses an identity file: an unencrypted SSH RSA private key (OpenSSH or PEM), or age identities
 * as age-keygen writes them (`AGE-SECRET-KEY-1…` lines; blank lines and `#` comments ignored).
 */
export function parseIdentities(text: string): Identity[] {
  if (text.includes('-----BEGIN ')) {
    const { pub, key } = parseSshRsaPrivateKey(text);
    return [new SshRsaIdentity(pub, key)];
  }
  const identities: Identity[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!/^AGE-SECRET-KEY-1/i.test(line)) {
      throw new AgeKeyError(`line ${index + 1} of the identity file is not an age identity (AGE-SECRET-KEY-1…)`);
    }
    identities.push(parseX25519Identity(line));
  });
  if (identities.length === 0) throw new AgeKeyError('the identity file holds no identity');
  return identities;
}

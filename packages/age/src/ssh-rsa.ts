/**
 * The `ssh-rsa` recipient type, as age's agessh package defines it (age 1.1): the file key is
 * encrypted with RSA-OAEP (SHA-256, MGF1-SHA-256, label "age-encryption.org/v1/ssh-rsa") to the
 * key, and the stanza is `-> ssh-rsa <tag>` where the tag is the unpadded base64 of the first 4 bytes
 * of SHA-256(the key's SSH wire blob), so an identity skips stanzas that are not its own.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { AgeFormatError, AgeKeyError } from './errors';
import { FILE_KEY_SIZE } from './format';
import type { Identity, Recipient, Stanza } from './stanza';
import { parseSshRsaBlob, type SshRsaPublicKey } from './ssh-rsa-key';

const LABEL = Buffer.from('age-encryption.org/v1/ssh-rsa');
const OAEP = { padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256', oaepLabel: LABEL } as const;

export class SshRsaRecipient implements Recipient {
  readonly key_type = 'ssh-rsa';
  readonly public_key: string;
  readonly fingerprint: string;
  readonly bits: number;

  constructor(
    private readonly pub: SshRsaPublicKey,
    readonly comment: string,
  ) {
    this.public_key = `ssh-rsa ${pub.blob.toString('base64')}${comment ? ` ${comment}` : ''}`;
    this.fingerprint = pub.fingerprint;
    this.bits = pub.bits;
  }

  wrap(fileKey: Buffer): Stanza {
    return {
      type: 'ssh-rsa',
      args: [this.pub.tag],
      body: crypto.publicEncrypt({ key: this.pub.key, ...OAEP }, fileKey),
    };
  }
}

export class SshRsaIdentity implements Identity {
  readonly key_type = 'ssh-rsa';
  readonly fingerprint: string;

  constructor(
    private readonly pub: SshRsaPublicKey,
    private readonly privateKey: KeyObject,
  ) {
    this.fingerprint = pub.fingerprint;
  }

  unwrap(stanzas: readonly Stanza[]): Buffer | null {
    for (const stanza of stanzas) {
      if (stanza.type !== 'ssh-rsa') continue;
      if (stanza.args.length !== 1) throw new AgeFormatError('an ssh-rsa stanza must have exactly one argument');
      if (stanza.args[0] !== this.pub.tag) continue;
      let fileKey: Buffer;
      try {
        fileKey = crypto.privateDecrypt({ key: this.privateKey, ...OAEP }, stanza.body);
      } catch {
        continue; // a tag collision (1 in 2^32) or a damaged stanza: not a key for this identity
      }
      if (fileKey.length !== FILE_KEY_SIZE) throw new AgeFormatError('an ssh-rsa stanza wraps a key of the wrong size');
      return fileKey;
    }
    return null;
  }
}

/** Parses one `ssh-rsa AAAA… [comment]` line (as in id_rsa.pub or authorized_keys, without options). */
export function parseSshRsaRecipient(text: string): SshRsaRecipient {
  const [type, data, ...comment] = text.trim().split(/[ \t]+/);
  if (type !== 'ssh-rsa') throw new AgeKeyError(`"${type}" keys are not supported: use ssh-rsa or an age recipient`);
  if (!data) throw new AgeKeyError('the ssh-rsa key has no key data after "ssh-rsa"');
  return new SshRsaRecipient(parseSshRsaBlob(data), comment.join(' '));
}

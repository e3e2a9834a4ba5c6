/**
 * The file key: 16 random bytes per file, wrapped once per recipient into the header, and
 * recovered from the header by an identity (which also proves the header intact through its MAC).
 */
import crypto from 'node:crypto';
import { AgeIntegrityError, AgeKeyError, AgeNoIdentityError } from './errors';
import { FILE_KEY_SIZE, MAX_RECIPIENTS } from './format';
import { encodeHeader, headerMac, type ParsedHeader } from './header';
import type { Identity, Recipient } from './stanza';

/** A new file key and the header that wraps it to every recipient (1 to 4 of them). */
export function sealFileKey(recipients: readonly Recipient[]): { fileKey: Buffer; header: Buffer } {
  if (recipients.length < 1 || recipients.length > MAX_RECIPIENTS) {
    throw new AgeKeyError(`a file is encrypted to 1 to ${MAX_RECIPIENTS} recipients, not ${recipients.length}`);
  }
  const fileKey = crypto.randomBytes(FILE_KEY_SIZE);
  return {
    fileKey,
    header: encodeHeader(
      recipients.map((r) => r.wrap(fileKey)),
      fileKey,
    ),
  };
}

/**
 * The file key of a parsed header, from the first identity that opens one of its stanzas, after
 * checking the header MAC with it. AgeNoIdentityError when none opens; AgeIntegrityError when the
 * header was altered (the MAC is checked before any payload byte is trusted).
 */
export function openFileKey(header: ParsedHeader, identities: readonly Identity[]): Buffer {
  if (identities.length === 0) throw new AgeKeyError('no identity given');
  for (const identity of identities) {
    const fileKey = identity.unwrap(header.stanzas);
    if (!fileKey) continue;
    if (!crypto.timingSafeEqual(headerMac(fileKey, header.macInput), header.mac)) {
      throw new AgeIntegrityError('the header MAC does not verify: the header was altered');
    }
    return fileKey;
  }
  throw new AgeNoIdentityError();
}

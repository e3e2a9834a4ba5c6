/**
 * An identity made of one file's own key rather than a private key: it opens exactly the file that
 * key was made for (the header MAC still checks it), whatever its recipients. For a process that
 * encrypted a file and must read it back within the same task, such as probing a recording it has
 * just stored encrypted, without ever holding a recipient's private key.
 */
import { AgeKeyError } from './errors';
import { FILE_KEY_SIZE } from './format';
import type { Identity, Stanza } from './stanza';

export class FileKeyIdentity implements Identity {
  readonly key_type = 'file-key';
  readonly fingerprint = 'file-key';
  private readonly fileKey: Buffer;

  constructor(fileKey: Uint8Array) {
    if (fileKey.length !== FILE_KEY_SIZE) throw new AgeKeyError(`a file key is ${FILE_KEY_SIZE} bytes`);
    this.fileKey = Buffer.from(fileKey);
  }

  unwrap(_stanzas: readonly Stanza[]): Buffer {
    return Buffer.from(this.fileKey);
  }
}

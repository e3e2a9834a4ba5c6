/**
 * Streaming age decryption: a Transform that takes an age v1 file and gives its plaintext. The
 * header MAC is checked before any payload is read, and every chunk's tag before its plaintext is
 * passed on; a chunk is opened as the last only at the end of the input, so a file cut at a chunk
 * boundary, altered, reordered or followed by extra bytes fails with AgeIntegrityError — never
 * silent plaintext. (A failure can come after earlier, verified chunks were passed on: a consumer
 * that must not keep a partial result discards it on the error, as for any failed stream.)
 */
import type { KeyObject } from 'node:crypto';
import { Transform, type TransformCallback, type TransformOptions } from 'node:stream';
import { ByteQueue } from './byte-queue';
import { AgeFormatError, AgeIntegrityError, AgeKeyError, asError } from './errors';
import { openFileKey } from './file-key';
import { PAYLOAD_NONCE_SIZE, SEALED_CHUNK_SIZE, STREAM_BUFFERS, TAG_SIZE } from './format';
import { parseHeader } from './header';
import { openChunk, payloadKey } from './payload';
import type { Identity } from './stanza';

export class AgeDecryptStream extends Transform {
  private readonly queue = new ByteQueue();
  private key: KeyObject | null = null;
  private counter = 0;
  private headerLength: number | null = null;
  private plaintextTotal = 0;

  constructor(
    private readonly identities: readonly Identity[],
    options?: TransformOptions,
  ) {
    super({ ...STREAM_BUFFERS, ...options });
    if (identities.length === 0) throw new AgeKeyError('no identity given');
  }

  /** Plaintext bytes passed on so far (all of them once the stream has ended without error). */
  get plaintextBytes(): number {
    return this.plaintextTotal;
  }

  /** The header's length, once it has been read and verified. */
  get headerBytes(): number | null {
    return this.headerLength;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.queue.push(chunk);
      if (this.key || this.readHeader()) {
        // More bytes after a full chunk: it cannot be the last one.
        while (this.queue.length > SEALED_CHUNK_SIZE) this.openNext(false, SEALED_CHUNK_SIZE);
      }
      callback();
    } catch (err) {
      callback(asError(err));
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (!this.key && !this.readHeader()) {
        throw new AgeIntegrityError('the file ends inside the header or before the payload: it was truncated');
      }
      const rest = this.queue.length;
      if (rest === 0) throw new AgeIntegrityError('the last chunk is missing: the file was truncated');
      if (rest === TAG_SIZE && this.counter > 0) throw new AgeFormatError('the last chunk is empty (not allowed)');
      this.openNext(true, rest);
      callback();
    } catch (err) {
      callback(asError(err));
    }
  }

  /** Reads header and payload nonce once both are queued; false while more bytes are needed. */
  private readHeader(): boolean {
    const header = parseHeader(this.queue.peekAll());
    if (!header || this.queue.length < header.headerBytes + PAYLOAD_NONCE_SIZE) return false;
    const fileKey = openFileKey(header, this.identities);
    this.queue.take(header.headerBytes);
    this.key = payloadKey(fileKey, this.queue.take(PAYLOAD_NONCE_SIZE));
    this.headerLength = header.headerBytes;
    return true;
  }

  private openNext(last: boolean, size: number): void {
    if (!this.key) throw new Error('openNext before the header was read'); // unreachable
    const plaintext = openChunk(this.key, this.counter, last, this.queue.take(size));
    if (!plaintext) {
      throw new AgeIntegrityError(
        last
          ? `the last chunk (#${this.counter}) does not verify: the file was altered or truncated`
          : `chunk #${this.counter} does not verify: the file was altered`,
      );
    }
    this.counter++;
    this.plaintextTotal += plaintext.length;
    if (plaintext.length > 0) this.push(plaintext);
  }
}

/** An age decrypter: pipe an age file in, read the plaintext out. */
export function decryptStream(identities: readonly Identity[], options?: TransformOptions): AgeDecryptStream {
  return new AgeDecryptStream(identities, options);
}

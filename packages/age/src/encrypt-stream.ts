/**
 * Streaming age encryption: a Transform that takes plaintext and gives a complete age v1 file —
 * header, payload nonce, then one sealed chunk per 64 KiB. It holds at most one chunk of plaintext
 * (it must see whether more follows before it can seal a chunk as the last), as references to the
 * input pieces rather than a copy, so memory stays flat whatever the size, and stream back-pressure
 * applies as to any Transform.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { Transform, type TransformCallback, type TransformOptions } from 'node:stream';
import { sealFileKey } from './file-key';
import { CHUNK_SIZE, PAYLOAD_NONCE_SIZE, STREAM_BUFFERS } from './format';
import { parseRecipient } from './keys';
import { payloadKey, sealChunk } from './payload';
import type { Recipient } from './stanza';

/** What a finished encryption reports, named as a stored file's `encryption` fields are. */
export interface AgeSummary {
  /** The header through its MAC line; the payload nonce starts at this offset. */
  readonly header_bytes: number;
  readonly plaintext_bytes: number;
  /** The whole age file: header, nonce, sealed chunks. */
  readonly file_bytes: number;
}

export class AgeEncryptStream extends Transform {
  /** Known from the start: the header is written before any plaintext is read. */
  readonly headerBytes: number;
  private readonly key: KeyObject;
  private readonly secret: Buffer;
  /**
   * The plaintext of the chunk being filled, as slices of the input (at most CHUNK_SIZE bytes):
   * referenced, not copied, as a PassThrough holds what it was written — a producer must not
   * reuse a buffer it has written (no Node stream allows that).
   */
  private pending: Buffer[] = [];
  private filled = 0;
  private counter = 0;
  private plaintextBytes = 0;
  private fileBytes = 0;
  private finished: AgeSummary | null = null;

  /** Recipients parsed already, or their public key text (parsed here; AgeKeyError if bad). */
  constructor(recipients: readonly (Recipient | string)[], options?: TransformOptions) {
    super({ ...STREAM_BUFFERS, ...options });
    const { fileKey, header } = sealFileKey(recipients.map((r) => (typeof r === 'string' ? parseRecipient(r) : r)));
    const nonce = crypto.randomBytes(PAYLOAD_NONCE_SIZE);
    this.key = payloadKey(fileKey, nonce);
    this.secret = fileKey;
    this.headerBytes = header.length;
    this.out(header);
    this.out(nonce);
  }

  /**
   * This file's key (16 bytes): whoever holds it reads the file, so it is for a process that must
   * read back what it just wrote (a probe of the plaintext) and never leaves memory (FileKeyIdentity).
   */
  get fileKey(): Buffer {
    return Buffer.from(this.secret);
  }

  /** Set once the last chunk is written (before 'end'); null until then. */
  get summary(): AgeSummary | null {
    return this.finished;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.plaintextBytes += chunk.length;
    for (let offset = 0; offset < chunk.length;) {
      // A full chunk is sealed only once a further byte proves it is not the last.
      if (this.filled === CHUNK_SIZE) this.sealPending(false);
      const n = Math.min(CHUNK_SIZE - this.filled, chunk.length - offset);
      this.pending.push(chunk.subarray(offset, offset + n));
      this.filled += n;
      offset += n;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.sealPending(true); // empty only when the whole plaintext is, as the format requires
    this.finished = {
      header_bytes: this.headerBytes,
      plaintext_bytes: this.plaintextBytes,
      file_bytes: this.fileBytes,
    };
    callback();
  }

  private sealPending(last: boolean): void {
    for (const sealed of sealChunk(this.key, this.counter++, last, this.pending)) this.out(sealed);
    this.pending = [];
    this.filled = 0;
  }

  private out(bytes: Buffer): void {
    this.fileBytes += bytes.length;
    this.push(bytes);
  }
}

/** An age encrypter to 1–4 recipients: pipe plaintext in, read the age file out. */
export function encryptStream(
  recipients: readonly (Recipient | string)[],
  options?: TransformOptions,
): AgeEncryptStream {
  return new AgeEncryptStream(recipients, options);
}

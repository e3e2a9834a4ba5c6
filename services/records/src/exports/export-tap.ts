import { Transform, type TransformCallback } from 'node:stream';
import { UnprocessableError } from '@patchbay/contracts';

/** How many leading bytes are kept for storage's content sniffing (as an upload's). */
const HEAD_BYTES = 512;

/**
 * Counts the bytes of an export on their way to the blob store and keeps the first ones; fails the
 * stream with a 422 naming `quota_bytes` as soon as more than `maxBytes` arrive (the room storage
 * said the container has left), so an export that cannot fit stops before its file exists.
 */
export class ExportTap extends Transform {
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes)
      return cb(
        UnprocessableError.field(
          'quota_bytes',
          `the export does not fit in the container's quota (${this.maxBytes} bytes left)`,
        ),
      );
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    cb(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

import { Transform, type TransformCallback } from 'node:stream';
import { errorItem, UnprocessableError } from '@patchbay/contracts';

/** How many leading bytes are kept for content sniffing (tar's magic sits at 257). */
export const HEAD_BYTES = 512;

/**
 * Counts bytes and keeps the first HEAD_BYTES while passing everything through; fails the stream
 * with a 422 naming `quota_bytes` as soon as more than `maxBytes` arrive, so an upload that cannot
 * fit stops early instead of filling the disk.
 */
export class UploadTap extends Transform {
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
        new UnprocessableError({
          code: 'quota_exceeded',
          errors: [errorItem('the file does not fit in the container quota', 'quota_bytes')],
        }),
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

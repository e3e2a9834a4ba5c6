import { Transform, type TransformCallback } from 'node:stream';

/** Part headers longer than this are left to the parser as they are (it refuses what is wrong). */
const MAX_HEADER_BLOCK = 16 * 1024;
const CRLF2 = Buffer.from('\r\n\r\n');
const FILENAME_PARAM = /;\s*filename\*?\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/gi;

/**
 * One part's header block (the lines between the boundary and the blank line) as the upload reads
 * it, whatever the client sent (decisions §41): the `data` part is a file even without a filename
 * (`curl -F 'data=<file'` sends none, and busboy reads such a part as a text field), and the
 * `file_object` part is a field even when sent as a file (`curl -F 'file_object=@fields.json'`).
 */
export function normalizePartHeaders(block: string): string {
  const lines = block.split('\r\n');
  const at = lines.findIndex((l) => /^content-disposition\s*:/i.test(l));
  if (at < 0) return block;
  const disposition = lines[at];
  const name = /;\s*name\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(disposition);
  const field = name ? (name[1] ?? name[2]) : null;
  const hasFilename = /;\s*filename\*?\s*=/i.test(disposition);
  if (field === 'data' && !hasFilename) lines[at] = `${disposition}; filename="data"`;
  if (field === 'file_object') {
    lines[at] = disposition.replace(FILENAME_PARAM, '');
    // busboy reads an application/octet-stream part as a file, whatever its disposition says.
    return lines.filter((l) => !/^content-type\s*:\s*application\/octet-stream\s*$/i.test(l)).join('\r\n');
  }
  return lines.join('\r\n');
}

/**
 * Rewrites the header block of each part of a multipart body with `normalizePartHeaders`, streaming:
 * the bytes of the parts pass through untouched, and only a delimiter's length of them is held back
 * (a delimiter may straddle two chunks).
 */
export class PartHeaderNormalizer extends Transform {
  private readonly delimiter: Buffer;
  private pending: Buffer;
  /** The CRLF put before the body so the first boundary reads as every other one; never sent on. */
  private skip = 2;
  private passThrough = false;

  constructor(boundary: string) {
    super();
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    this.pending = Buffer.from('\r\n');
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (this.passThrough) return cb(null, chunk);
    let buf = Buffer.concat([this.pending, chunk]);
    for (;;) {
      const at = buf.indexOf(this.delimiter);
      if (at < 0) {
        const keep = Math.min(buf.length, this.delimiter.length - 1);
        this.forward(buf.subarray(0, buf.length - keep));
        this.pending = buf.subarray(buf.length - keep);
        return cb();
      }
      const headersAt = at + this.delimiter.length;
      if (buf.length >= headersAt + 2 && buf.subarray(headersAt, headersAt + 2).toString('latin1') === '--') {
        // The closing delimiter: the rest is the epilogue.
        this.forward(buf);
        this.pending = Buffer.alloc(0);
        this.passThrough = true;
        return cb();
      }
      const end = buf.indexOf(CRLF2, headersAt);
      if (end < 0) {
        if (buf.length - headersAt > MAX_HEADER_BLOCK) {
          this.forward(buf);
          this.pending = Buffer.alloc(0);
          this.passThrough = true;
        } else {
          this.forward(buf.subarray(0, at));
          this.pending = buf.subarray(at);
        }
        return cb();
      }
      const block = normalizePartHeaders(buf.subarray(headersAt, end).toString('latin1'));
      this.forward(buf.subarray(0, headersAt));
      this.forward(Buffer.from(block, 'latin1'));
      this.forward(CRLF2);
      buf = buf.subarray(end + CRLF2.length);
    }
  }

  override _flush(cb: TransformCallback): void {
    this.forward(this.pending);
    cb();
  }

  /** Pushes bytes on, less the leading CRLF that was never the client's. */
  private forward(b: Buffer): void {
    let out = b;
    if (this.skip > 0) {
      const n = Math.min(this.skip, out.length);
      this.skip -= n;
      out = out.subarray(n);
    }
    if (out.length > 0) this.push(out);
  }
}

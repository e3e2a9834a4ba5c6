/**
 * Removes every occurrence of a multipart boundary from a byte stream, chunk by chunk (an occurrence
 * may straddle two chunks: up to its length less one byte is held back). A multipart body is the
 * same request whatever boundary the client drew for it: a retry through a fresh FormData draws a
 * new one, and RFC 2046 keeps the boundary out of the parts' contents, so what remains is the body
 * as far as its meaning goes.
 */
export class BoundaryStripper {
  private readonly boundary: Buffer;
  private carry = Buffer.alloc(0);

  constructor(boundary: string) {
    this.boundary = Buffer.from(boundary, 'latin1');
  }

  /** The bytes of `chunk` (with what was held back) that can be passed on: no boundary, none straddling. */
  push(chunk: Uint8Array): Buffer {
    let buf = Buffer.concat([this.carry, chunk]);
    const out: Buffer[] = [];
    for (let at = buf.indexOf(this.boundary); at >= 0; at = buf.indexOf(this.boundary)) {
      out.push(buf.subarray(0, at));
      buf = buf.subarray(at + this.boundary.length);
    }
    const keep = Math.min(buf.length, this.boundary.length - 1);
    out.push(buf.subarray(0, buf.length - keep));
    this.carry = Buffer.from(buf.subarray(buf.length - keep));
    return Buffer.concat(out);
  }

  /** What was held back, at the end of the stream. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    return rest;
  }
}

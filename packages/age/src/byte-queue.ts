/**
 * A FIFO of byte buffers that hands out exact-size pieces, so a stream parser can wait for a whole
 * header or a whole 64 KiB chunk without concatenating everything it has seen. Copies only when a
 * piece spans two buffers.
 */
export class ByteQueue {
  private readonly buffers: Buffer[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.buffers.push(bytes);
    this.size += bytes.length;
  }

  /** Everything queued as one buffer, left in the queue (for the header, which is small). */
  peekAll(): Buffer {
    if (this.buffers.length > 1) this.buffers.splice(0, this.buffers.length, Buffer.concat(this.buffers));
    return this.buffers[0] ?? Buffer.alloc(0);
  }

  /** Removes and returns the first `n` bytes; `n` must not exceed `length`. */
  take(n: number): Buffer {
    if (n > this.size) throw new RangeError(`take(${n}) with ${this.size} bytes queued`);
    this.size -= n;
    const first = this.buffers[0];
    if (first && first.length >= n) {
      if (first.length === n) this.buffers.shift();
      else this.buffers[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const head = this.buffers[0];
      const used = Math.min(head.length, n - filled);
      head.copy(out, filled, 0, used);
      filled += used;
      if (used === head.length) this.buffers.shift();
      else this.buffers[0] = head.subarray(used);
    }
    return out;
  }
}

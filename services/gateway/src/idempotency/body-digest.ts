import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BoundaryStripper } from './boundary-stripper';

/**
 * The SHA-256 and length of a streamed request body, taken as the route reads it — whoever reads it
 * (the upload's pipeline, multer's parser, the ingest parser, a drain after a refusal): the body is
 * neither buffered nor read any sooner or otherwise than the route reads it.
 *
 * Every byte a Readable hands out, in paused or flowing mode, by `read()`, a pipe or an async
 * iterator, goes out as a `data` event, and `end` follows the last: so the digest watches the
 * request's `emit` for those two (adding a `data` listener instead would switch the request to
 * flowing mode behind the route's back). The digest is complete once `end` has been emitted; an
 * answer given before that is not kept (idempotency.ts). A multipart body is hashed without its
 * boundary (boundary-stripper.ts), so a retry built from a fresh form is still the same request.
 */
export class BodyDigest {
  private readonly hash: Hash = createHash('sha256');
  private hex: string | null = null;
  private readonly waiters: Array<(hex: string) => void> = [];
  private readonly stripper: BoundaryStripper | null;
  /** The bytes read so far (of a multipart body: without its boundaries). */
  bytes = 0;

  constructor(req: IncomingMessage, multipartBoundary: string | null = null) {
    this.stripper = multipartBoundary ? new BoundaryStripper(multipartBoundary) : null;
    const emit = req.emit.bind(req);
    req.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event === 'data' && this.hex === null) this.add(args[0]);
      else if (event === 'end' && this.hex === null) this.finish();
      return emit(event, ...args);
    };
  }

  /**
   * The body's length as sent, for a repeat's Content-Length to be compared with before reading it;
   * null for a multipart body (a repeat's boundary may be of another length).
   */
  lengthAsSent(): number | null {
    return this.stripper ? null : this.bytes;
  }

  /** The SHA-256 (hex) of the whole body; null until the route has read all of it. */
  digest(): string | null {
    return this.hex;
  }

  /** The digest once the route has read the whole body, waiting up to `waitMs` for it; null if it does not come. */
  complete(waitMs: number): Promise<string | null> {
    if (this.hex !== null) return Promise.resolve(this.hex);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), waitMs);
      timer.unref();
      this.waiters.push((hex) => {
        clearTimeout(timer);
        resolve(hex);
      });
    });
  }

  private finish(): void {
    if (this.stripper) this.update(this.stripper.end());
    const hex = this.hash.digest('hex');
    this.hex = hex;
    for (const wake of this.waiters.splice(0)) wake(hex);
  }

  private add(chunk: unknown): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk instanceof Uint8Array ? chunk : null;
    if (bytes) this.update(this.stripper ? this.stripper.push(bytes) : bytes);
  }

  private update(bytes: Uint8Array): void {
    this.bytes += bytes.length;
    this.hash.update(bytes);
  }
}

import { Readable } from 'node:stream';
import {
  ApiError,
  UnavailableError,
  LivePullReplySchema,
  LivePullRequestSchema,
  TableCaller,
  type LivePullReply,
  type LivePullRequest,
} from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

/** A pull waits up to 2 s on the transcoder for bytes; this is the request's own limit, with room. */
const PULL_TIMEOUT_MS = 10_000;

/**
 * A transcoded copy's bytes as the transcoder makes them (decisions §53): pulled from the run's
 * subject one reply at a time, from offset 0, and only as fast as the download takes them (the
 * next pull waits for the stream to want more). Ends when the transcoder says ffmpeg finished and
 * every byte was read; fails with the run's error (a copy that could not be made, the transcoder
 * gone): the download is then cut, never ended as if complete. Destroyed early (the client went),
 * it tells the transcoder this listener has left.
 */
export class LiveReader extends Readable {
  private offset = 0;
  private pulling = false;
  private finished = false;
  private readonly caller: TableCaller<
    Record<string, { request: typeof LivePullRequestSchema; reply: typeof LivePullReplySchema }>
  >;

  constructor(
    bus: Bus,
    private readonly subject: string,
    private readonly key: string,
    private readonly listener: string,
    private readonly requestId: string,
  ) {
    super({ highWaterMark: 256 * 1024 });
    this.caller = new TableCaller(bus, { [subject]: { request: LivePullRequestSchema, reply: LivePullReplySchema } });
  }

  /**
   * Pulls until the first bytes (or the end) come, before any header is sent: true then; false when
   * the run is not there (gone, or not known here any more: ask storage again). A run that fails
   * before its first byte rejects with its error, which is then the answer (a 422 for a file that is
   * not audio, say). Gives up at `deadline` (epoch ms) with a 503.
   */
  async open(deadline: number): Promise<boolean> {
    for (;;) {
      let reply: LivePullReply;
      try {
        reply = await this.pull();
      } catch (err) {
        if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 404) throw err;
        return false;
      }
      if (reply.data.length > 0 || reply.end) {
        this.accept(reply);
        return true;
      }
      if (Date.now() >= deadline)
        throw new UnavailableError({
          message: 'the transcoded copy is not ready yet; try again shortly',
          retryAfterSeconds: 5,
        });
    }
  }

  override _read(): void {
    if (this.pulling || this.finished) return;
    this.pulling = true;
    void this.pullWhileWanted();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    if (!this.finished) {
      this.finished = true;
      this.caller
        .call(this.subject, this.request({ leave: true }), { timeoutMs: 2000, requestId: this.requestId })
        .catch(() => undefined);
    }
    done(err);
  }

  private async pullWhileWanted(): Promise<void> {
    try {
      for (;;) {
        const reply = await this.pull();
        if (this.destroyed) return;
        if (!this.accept(reply)) break;
      }
    } catch (err) {
      this.destroy(err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.pulling = false;
    }
  }

  /** Pushes a reply's bytes; false when the stream wants no more now (full, or ended). */
  private accept(reply: LivePullReply): boolean {
    const bytes = Buffer.from(reply.data, 'base64');
    this.offset += bytes.length;
    let more = true;
    if (bytes.length > 0) more = this.push(bytes);
    if (reply.end) {
      this.finished = true;
      this.push(null);
      return false;
    }
    return more;
  }

  private pull(): Promise<LivePullReply> {
    return this.caller.call(this.subject, this.request({}), { timeoutMs: PULL_TIMEOUT_MS, requestId: this.requestId });
  }

  private request(extra: Partial<LivePullRequest>): LivePullRequest {
    return { key: this.key, listener: this.listener, offset: this.offset, ...extra };
  }
}

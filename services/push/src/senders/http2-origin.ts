import http2 from 'node:http2';
import type { Duplex } from 'node:stream';

/** A provider's answer to one request: status, body (kept only for non-2xx answers), `Retry-After`. */
export interface Http2Answer {
  status: number;
  body: string;
  retryAfter?: string;
}

/** A request that got no answer: it timed out (it may have arrived), or its connection failed. */
export interface Http2Failure {
  failed: 'timeout' | 'connection';
  detail: string;
}

/**
 * One HTTP/2 origin over one long-lived session: opened on the first request and reused by every
 * request after it (requests are multiplexed as streams); a session that closes, fails or is sent
 * GOAWAY is replaced on the next request. At most `maxStreams` requests are in flight at once, the
 * rest wait their turn in order. Sessions are unref'd, so an idle one keeps no process alive.
 */
export class Http2Origin {
  /** Sessions opened so far (one, unless the provider closed one). */
  opened = 0;
  private session?: http2.ClientHttp2Session;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly authority: string,
    private readonly opts: { createConnection?: () => Duplex; maxStreams: number },
  ) {}

  /** POSTs `body` (a Buffer: bytes sent to many); resolves with the answer or the failure, never rejects. */
  async post(
    headers: http2.OutgoingHttpHeaders,
    body: string | Buffer,
    timeoutMs: number,
  ): Promise<Http2Answer | Http2Failure> {
    if (this.active >= this.opts.maxStreams) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await this.once(headers, body, timeoutMs);
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Closes the session once its streams finish. */
  close(): Promise<void> {
    const s = this.session;
    this.session = undefined;
    if (!s || s.closed || s.destroyed) return Promise.resolve();
    return new Promise((resolve) => s.close(() => resolve()));
  }

  private current(): http2.ClientHttp2Session {
    const live = this.session;
    if (live && !live.closed && !live.destroyed) return live;
    const s = http2.connect(
      this.authority,
      this.opts.createConnection ? { createConnection: this.opts.createConnection } : {},
    );
    const forget = () => {
      if (this.session === s) this.session = undefined;
    };
    s.on('error', forget); // each stream reports its own failure
    s.on('goaway', forget);
    s.on('close', forget);
    s.unref();
    this.session = s;
    this.opened++;
    return s;
  }

  private once(
    headers: http2.OutgoingHttpHeaders,
    body: string | Buffer,
    timeoutMs: number,
  ): Promise<Http2Answer | Http2Failure> {
    return new Promise((resolve) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.current().request(headers);
      } catch (err) {
        resolve({ failed: 'connection', detail: err instanceof Error ? err.message : String(err) });
        return;
      }
      let status = 0;
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      stream.on('response', (h) => {
        status = Number(h[':status']);
        const ra = h['retry-after'];
        retryAfter = Array.isArray(ra) ? ra[0] : ra;
      });
      stream.on('data', (c: Buffer) => {
        if (status < 200 || status > 299) chunks.push(c);
      });
      stream.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8'), retryAfter }));
      stream.on('error', (err) => resolve({ failed: 'connection', detail: err.message }));
      stream.on('close', () => resolve({ failed: 'connection', detail: `stream closed (code ${stream.rstCode})` }));
      stream.setTimeout(timeoutMs, () => {
        resolve({ failed: 'timeout', detail: `no answer within ${timeoutMs} ms` });
        stream.close(http2.constants.NGHTTP2_CANCEL);
      });
      stream.end(body);
    });
  }
}

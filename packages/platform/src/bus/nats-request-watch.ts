import { createInbox, type NatsConnection, type Subscription } from 'nats';
import type { Logger } from 'pino';
import { UnavailableError } from '@patchbay/contracts';
import { BUS_RETRY_AFTER_S, NoRespondersError, ResponderLostError } from './bus-errors';
import { fromNatsError } from './nats-errors';

/**
 * Requests in flight that are known lost fail at once instead of waiting out their timeout (the
 * requester's half; nats-held-requests.ts is the responder's):
 *
 * - **The connection drops**: every request waiting fails with a 503 and Retry-After. Its answer
 *   could only come on a connection that is gone.
 * - **The process holding a request dies, NATS up**: NATS says nothing (the request was delivered;
 *   its reply will just never come). So each request names, in WATCH_HEADER, a subject of this
 *   connection and a number; a responder still working on it after about a second tells that
 *   subject which process holds it (the holder's private ping subject). From then on the requester
 *   pings each holder once a PROBE_EVERY_MS; a holder that is gone is a no-responders from the
 *   server at once (its subscriptions went with its connection), and its requests fail with a 503
 *   (ResponderLostError). A holder too busy to answer a ping is alive: its requests keep waiting.
 *
 * The hot path pays one header and a map entry per request; the notes and pings exist only for
 * requests held longer than a second. A responder killed in that first second (before its note)
 * still costs the request its timeout.
 */

/** Header of a request: `<watch subject> <number>`: where its holder says who it is. */
export const WATCH_HEADER = 'pb-watch';
/** How often a requester pings the processes holding its long requests. */
export const PROBE_EVERY_MS = 1000;

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();

interface Pending {
  subject: string;
  fail(err: Error): void;
  /** The holder's ping subject, once it has said. */
  holder?: string;
}

export class RequestWatch {
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private inboxSubject: string | undefined;
  private sub: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly probing = new Set<string>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs `send` (given the request's WATCH_HEADER value) and settles as it does, or rejects with a
   * 503 as soon as the request is known lost. `send` may go on after that; its outcome is dropped.
   */
  track<T>(subject: string, send: (watch: string | undefined) => Promise<T>): Promise<T> {
    const inbox = this.inbox();
    // Closed or closing: nothing to watch with; the request itself fails as it does.
    if (!inbox) return send(undefined);
    const seq = ++this.seq;
    // One promise settled by whichever comes first: the answer, or the word that it is lost.
    return new Promise<T>((resolve, reject) => {
      this.pending.set(seq, { subject, fail: reject });
      send(`${inbox} ${seq}`).then(
        (value) => {
          this.pending.delete(seq);
          resolve(value);
        },
        (err: unknown) => {
          this.pending.delete(seq);
          reject(err);
        },
      );
    });
  }

  /** The connection dropped: every request waiting fails now. */
  connectionLost(): void {
    if (this.pending.size === 0) return;
    this.logger.warn({ requests: this.pending.size }, 'connection lost: failing the requests in flight with 503');
    for (const p of this.pending.values())
      p.fail(
        new UnavailableError({
          message:
            `request ${p.subject}: the connection to the message bus was lost while it waited for its answer; ` +
            'try again shortly',
          retryAfterSeconds: BUS_RETRY_AFTER_S,
        }),
      );
    this.pending.clear();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    try {
      this.sub?.unsubscribe();
    } catch {
      /* already closed */
    }
  }

  /** The subject responders write their notes to, subscribed on first use (none once closed). */
  private inbox(): string | undefined {
    if (this.inboxSubject) return this.inboxSubject;
    const subject = createInbox();
    try {
      this.sub = this.nc.subscribe(subject, {
        callback: (err, msg) => {
          if (!err) this.noted(msg.data);
        },
      });
    } catch {
      return undefined;
    }
    this.inboxSubject = subject;
    return subject;
  }

  /** A note: `<holder's ping subject> <number> <number>…`, the requests it holds. */
  private noted(data: Uint8Array): void {
    const [holder, ...seqs] = decoder.decode(data).split(' ');
    if (!holder) return;
    for (const seq of seqs) {
      const p = this.pending.get(Number(seq));
      if (p) p.holder = holder;
    }
    this.timer ??= setInterval(() => this.probe(), PROBE_EVERY_MS).unref();
  }

  /** Pings every holder of a request still waiting; stops when none is left. */
  private probe(): void {
    const holders = new Set<string>();
    for (const p of this.pending.values()) if (p.holder) holders.add(p.holder);
    if (holders.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    for (const holder of holders) {
      if (this.probing.has(holder)) continue;
      this.probing.add(holder);
      this.nc
        .request(holder, EMPTY, { timeout: PROBE_EVERY_MS })
        .then(
          () => undefined,
          (err: unknown) => {
            if (fromNatsError(err, 'ping') instanceof NoRespondersError) this.holderGone(holder);
          },
        )
        .finally(() => this.probing.delete(holder));
    }
  }

  private holderGone(holder: string): void {
    let failed = 0;
    for (const [seq, p] of this.pending) {
      if (p.holder !== holder) continue;
      this.pending.delete(seq);
      failed += 1;
      p.fail(
        new ResponderLostError({
          message: `request ${p.subject}: the process answering it went away; try again shortly`,
        }),
      );
    }
    if (failed > 0)
      this.logger.warn({ requests: failed }, 'the process holding requests is gone: failing them with 503');
  }
}

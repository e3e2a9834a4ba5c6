import { createInbox, type NatsConnection, type Subscription } from 'nats';

/**
 * The responder's half of telling a requester that its request is lost (nats-request-watch.ts):
 * this process answers pings on a private subject of its own, and a request it has been working on
 * for NOTE_AFTER_MS is reported once to its requester's watch subject with that ping subject. When
 * the process dies, its connection and the ping subscription go with it, and the requester's next
 * ping is a no-responders.
 *
 * Per request the hot path is a map entry; one timer per process looks at the entries four times a
 * second, and sends one note per requester for the requests that became long since.
 */

/** A request still running after this long is reported to its requester. */
export const NOTE_AFTER_MS = 1000;
const TICK_MS = 250;
const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

interface Held {
  watch: string;
  seq: string;
  since: number;
}

export class HeldRequests {
  private readonly held = new Set<Held>();
  private ping: string | undefined;
  private sub: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly nc: NatsConnection) {}

  /**
   * Notes a request carrying WATCH_HEADER `watch` as held until the returned function is called;
   * a request without one (a sender before this) is not watched.
   */
  hold(watch: string | undefined): () => void {
    const space = watch?.indexOf(' ') ?? -1;
    if (!watch || space < 1) return () => undefined;
    this.start();
    const entry: Held = { watch: watch.slice(0, space), seq: watch.slice(space + 1), since: Date.now() };
    this.held.add(entry);
    return () => this.held.delete(entry);
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

  /** The ping subscription and the timer, made on the first request held. */
  private start(): void {
    if (this.ping) return;
    const ping = createInbox();
    try {
      this.sub = this.nc.subscribe(ping, {
        callback: (err, msg) => {
          if (err) return;
          try {
            msg.respond(EMPTY);
          } catch {
            /* closing: the pinger finds out soon enough */
          }
        },
      });
    } catch {
      return; // closed: nothing to report to anyone
    }
    this.ping = ping;
    this.timer = setInterval(() => this.note(), TICK_MS).unref();
  }

  /** Reports the requests held longer than NOTE_AFTER_MS, once each, one message per requester. */
  private note(): void {
    if (this.held.size === 0 || !this.ping) return;
    const due = Date.now() - NOTE_AFTER_MS;
    const byWatch = new Map<string, string[]>();
    for (const h of this.held) {
      if (h.since > due) continue;
      this.held.delete(h);
      const seqs = byWatch.get(h.watch);
      if (seqs) seqs.push(h.seq);
      else byWatch.set(h.watch, [h.seq]);
    }
    for (const [watch, seqs] of byWatch) {
      try {
        this.nc.publish(watch, encoder.encode(`${this.ping} ${seqs.join(' ')}`));
      } catch {
        /* the connection closed: the requester finds out on its own */
      }
    }
  }
}

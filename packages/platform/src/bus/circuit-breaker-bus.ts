import type { Logger } from 'pino';
import { TimeoutError, UnavailableError, type BusReply } from '@patchbay/contracts';
import { NoRespondersError } from './bus-errors';
import type { Bus, RequestOptions } from './port';

export interface CircuitOptions {
  /** Calls in a row the service did not answer that open its circuit (default 2). */
  failures?: number;
  /** How long an open circuit refuses before it lets one trial request through (default 2000 ms). */
  openMs?: number;
  /** Where a circuit opening (warn) and closing (info) is logged. */
  logger?: Logger;
}

type Settings = Required<Omit<CircuitOptions, 'logger'>> & CircuitOptions;

/** One service's circuit: closed (counting unanswered calls), open (refusing), or half-open (one trial out). */
class Circuit {
  private misses = 0;
  private openUntil = 0;
  private trial = false;
  /** When the service last answered a call (Date.now()). */
  private lastAnswer = 0;

  constructor(
    private readonly service: string,
    private readonly opts: Settings,
  ) {}

  /** Throws a 503 while open (or while the one trial of a half-open circuit is out). */
  admit(): void {
    if (this.openUntil === 0) return;
    const now = Date.now();
    if (now >= this.openUntil && !this.trial) {
      this.trial = true;
      return;
    }
    const wait = Math.max(this.openUntil - now, 1000);
    throw new UnavailableError(
      `${this.service} is not answering (the message bus or the service is down); try again shortly`,
      [],
      { retryAfterSeconds: wait / 1000 },
    );
  }

  /** The service answered (whatever the status: an application error is an answer). */
  answered(): void {
    const wasOpen = this.openUntil !== 0;
    this.lastAnswer = Date.now();
    this.reset();
    if (wasOpen) this.opts.logger?.info({ service: this.service }, 'circuit closed: the service answers again');
  }

  /**
   * A call started at `startedAt` got no answer (timeout, or nobody serves the subject). A timeout
   * while the service answered other calls meanwhile is one slow call, not a service that is gone:
   * it does not count (a partner's slow third-party endpoint must not close the service to everyone).
   */
  missed(startedAt: number, timedOut: boolean): void {
    if (timedOut && this.lastAnswer >= startedAt) return this.settled();
    this.misses += 1;
    if (!this.trial && this.misses < this.opts.failures) return;
    const wasOpen = this.openUntil !== 0;
    this.trial = false;
    this.openUntil = Date.now() + this.opts.openMs;
    if (!wasOpen)
      this.opts.logger?.warn(
        { service: this.service, open_ms: this.opts.openMs },
        'circuit open: calls to the service fail fast with 503 until it answers again',
      );
  }

  /** A call that failed on the caller's side (a payload error, say): the trial is over, the count stays. */
  settled(): void {
    this.trial = false;
  }

  reset(): void {
    this.misses = 0;
    this.openUntil = 0;
    this.trial = false;
  }
}

/**
 * A bus whose requests fail fast while a service does not answer. It counts only what says the
 * service is not there — timeouts and no-responders — never an answer, whatever its status, and
 * never a failure on the caller's side (a message too large, a lost chunk). After `failures` such
 * calls in a row on one service's subjects (`svc.<service>.…`), that service's circuit opens: its
 * requests are refused at once with a 503 (and Retry-After) instead of each waiting out the bus
 * timeout. After `openMs` one trial request goes through; an answer closes the circuit, another
 * miss opens it again.
 *
 * When the adapter reports its connection down (NATS: disconnected), every request is refused at
 * once the same way, before any timeout, and every circuit closes when the connection is back. Only
 * `request` is guarded: events and jobs are durable and retried by the bus itself.
 */
export class CircuitBreakerBus implements Bus {
  private readonly circuits = new Map<string, Circuit>();
  private readonly opts: Settings;
  private connected = true;
  private readonly unwatch: (() => void) | undefined;

  constructor(
    private readonly inner: Bus,
    opts: CircuitOptions = {},
  ) {
    this.opts = { failures: 2, openMs: 2000, ...opts };
    this.unwatch = inner.onConnection?.((up) => this.connection(up));
  }

  async request(subject: string, payload: unknown, opts?: RequestOptions): Promise<BusReply> {
    const service = serviceOf(subject);
    if (!this.connected)
      throw new UnavailableError(
        `${service} is not answering (the message bus is disconnected); try again shortly`,
        [],
        { retryAfterSeconds: this.opts.openMs / 1000 },
      );
    const circuit = this.circuitOf(service);
    circuit.admit();
    const startedAt = Date.now();
    try {
      const reply = await this.inner.request(subject, payload, opts);
      circuit.answered();
      return reply;
    } catch (err) {
      if (err instanceof TimeoutError) circuit.missed(startedAt, true);
      else if (err instanceof NoRespondersError) circuit.missed(startedAt, false);
      else circuit.settled();
      throw err;
    }
  }

  serve: Bus['serve'] = (...args) => this.inner.serve(...args);
  publish: Bus['publish'] = (...args) => this.inner.publish(...args);
  subscribe: Bus['subscribe'] = (...args) => this.inner.subscribe(...args);
  enqueue: Bus['enqueue'] = (...args) => this.inner.enqueue(...args);
  work: Bus['work'] = (...args) => this.inner.work(...args);

  close(): Promise<void> {
    this.unwatch?.();
    return this.inner.close();
  }

  get listen(): Bus['listen'] {
    return this.inner.listen?.bind(this.inner);
  }

  get pending(): Bus['pending'] {
    return this.inner.pending?.bind(this.inner);
  }

  get onConnection(): Bus['onConnection'] {
    return this.inner.onConnection?.bind(this.inner);
  }

  private connection(up: boolean): void {
    if (up === this.connected) return;
    this.connected = up;
    if (up) {
      for (const c of this.circuits.values()) c.reset();
      this.opts.logger?.info('bus connection back: calls go through again');
    } else this.opts.logger?.warn('bus connection lost: calls fail fast with 503 until it is back');
  }

  private circuitOf(service: string): Circuit {
    let circuit = this.circuits.get(service);
    if (!circuit) this.circuits.set(service, (circuit = new Circuit(service, this.opts)));
    return circuit;
  }
}

/** `svc.<service>.…` → `<service>`; any other subject is its own circuit. */
function serviceOf(subject: string): string {
  const parts = subject.split('.');
  return parts[0] === 'svc' && parts[1] ? parts[1] : subject;
}

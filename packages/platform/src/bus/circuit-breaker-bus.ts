import type { Logger } from 'pino';
import { TimeoutError, UnavailableError, type BusReply } from '@patchbay/contracts';
import type { Bus, RequestOptions } from './port';

export interface CircuitOptions {
  /** Timeouts in a row that open a service's circuit (default 2). */
  failures?: number;
  /** How long an open circuit refuses before it lets one trial request through (default 2000 ms). */
  openMs?: number;
  /** Where a circuit opening (warn) and closing (info) is logged. */
  logger?: Logger;
}

/** One service's circuit: closed (counting timeouts), open (refusing), or half-open (one trial out). */
class Circuit {
  private timeouts = 0;
  private openUntil = 0;
  private trial = false;

  constructor(
    private readonly service: string,
    private readonly opts: Required<Omit<CircuitOptions, 'logger'>> & CircuitOptions,
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

  succeeded(): void {
    const wasOpen = this.openUntil !== 0;
    this.timeouts = 0;
    this.openUntil = 0;
    this.trial = false;
    if (wasOpen) this.opts.logger?.info({ service: this.service }, 'circuit closed: the service answers again');
  }

  timedOut(): void {
    this.timeouts += 1;
    if (!this.trial && this.timeouts < this.opts.failures) return;
    const wasOpen = this.openUntil !== 0;
    this.trial = false;
    this.openUntil = Date.now() + this.opts.openMs;
    if (!wasOpen)
      this.opts.logger?.warn(
        { service: this.service, open_ms: this.opts.openMs },
        'circuit open: calls to the service fail fast with 503 until it answers again',
      );
  }

  /** A call that failed for another reason (a 503 from the adapter, say): the trial is over, the count stays. */
  settled(): void {
    this.trial = false;
  }
}

/**
 * A bus whose requests fail fast while a service does not answer. After `failures` timeouts in a
 * row on one service's subjects (`svc.<service>.…`), that service's circuit opens: its requests
 * are refused at once with a 503 (and Retry-After) instead of each waiting out the bus timeout —
 * when the bus itself is down, every service's circuit opens after its first timeouts. After
 * `openMs` one trial request goes through; an answer closes the circuit, another timeout opens it
 * again. Only `request` is guarded: events and jobs are durable and retried by the bus itself.
 */
export class CircuitBreakerBus implements Bus {
  private readonly circuits = new Map<string, Circuit>();
  private readonly opts: Required<Omit<CircuitOptions, 'logger'>> & CircuitOptions;

  constructor(
    private readonly inner: Bus,
    opts: CircuitOptions = {},
  ) {
    this.opts = { failures: 2, openMs: 2000, ...opts };
  }

  async request(subject: string, payload: unknown, opts?: RequestOptions): Promise<BusReply> {
    const circuit = this.circuitOf(subject);
    circuit.admit();
    try {
      const reply = await this.inner.request(subject, payload, opts);
      circuit.succeeded();
      return reply;
    } catch (err) {
      if (err instanceof TimeoutError) circuit.timedOut();
      else circuit.settled();
      throw err;
    }
  }

  serve: Bus['serve'] = (...args) => this.inner.serve(...args);
  publish: Bus['publish'] = (...args) => this.inner.publish(...args);
  subscribe: Bus['subscribe'] = (...args) => this.inner.subscribe(...args);
  enqueue: Bus['enqueue'] = (...args) => this.inner.enqueue(...args);
  work: Bus['work'] = (...args) => this.inner.work(...args);
  close: Bus['close'] = () => this.inner.close();

  get listen(): Bus['listen'] {
    return this.inner.listen?.bind(this.inner);
  }

  get pending(): Bus['pending'] {
    return this.inner.pending?.bind(this.inner);
  }

  private circuitOf(subject: string): Circuit {
    const parts = subject.split('.');
    const service = parts[0] === 'svc' && parts[1] ? parts[1] : subject;
    let circuit = this.circuits.get(service);
    if (!circuit) this.circuits.set(service, (circuit = new Circuit(service, this.opts)));
    return circuit;
  }
}

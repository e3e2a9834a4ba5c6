import type { Logger } from 'pino';
import { TimeoutError, UnavailableError, type BusReply } from '@patchbay/contracts';
import { NoRespondersError } from './bus-errors';
import { Circuit, type CircuitSettings } from './circuit';
import type { Bus, RequestOptions } from './port';

export interface CircuitOptions {
  /** Calls in a row the service did not answer that open its circuit (default 2). */
  failures?: number;
  /** How long an open circuit refuses before it lets one trial request through (default 2000 ms). */
  openMs?: number;
  /** Where a circuit opening (warn) and closing (info) is logged. */
  logger?: Logger;
}

/** Callers' circuits kept per service at most; past it the oldest is forgotten (it was closed or open). */
const MAX_CALLERS = 10_000;

/** What one call was admitted as: the trial of the service's half-open circuit, or not. */
interface Ticket {
  caller?: string;
  trial: boolean;
  startedAt: number;
}

/**
 * One service's circuits: the service's own, and one per caller whose calls went unanswered.
 *
 * A timeout of a call made for a caller counts against that caller's circuit; against the
 * service's only once calls of at least two callers went unanswered since the service last
 * answered anyone. So a partner whose own calls time out (its huge pages, its slow external
 * storage) gets fast 503s of its own, and every other partner keeps being served. No responders
 * (nobody serves the subject) and timeouts of calls made for nobody count against the service at
 * once: they say nothing about a caller.
 */
class ServiceCircuits {
  private readonly all: Circuit;
  private readonly callers = new Map<string, Circuit>();
  private readonly missedBy = new Set<string>();

  constructor(
    private readonly service: string,
    private readonly opts: CircuitSettings,
  ) {
    this.all = new Circuit({ service }, opts);
  }

  /** Throws a 503 while the service's circuit, or the caller's, is open. */
  admit(caller: string | undefined): Ticket {
    const mine = caller ? this.callers.get(caller) : undefined;
    const mineTrial = mine?.admit() ?? false;
    try {
      return { caller, trial: this.all.admit(), startedAt: Date.now() };
    } catch (err) {
      // Refused by the service's circuit: the caller's trial did not go out after all.
      if (mineTrial) mine?.settled();
      throw err;
    }
  }

  answered(t: Ticket): void {
    this.all.answered();
    this.missedBy.clear();
    if (t.caller) this.callers.delete(t.caller);
  }

  missed(t: Ticket, timedOut: boolean): void {
    if (!t.caller || !timedOut) return this.all.missed(t.startedAt, timedOut);
    this.callerCircuit(t.caller).missed(t.startedAt, true);
    this.missedBy.add(t.caller);
    if (t.trial || this.missedBy.size >= 2) this.all.missed(t.startedAt, true);
  }

  settled(t: Ticket): void {
    this.all.settled();
    const mine = t.caller ? this.callers.get(t.caller) : undefined;
    mine?.settled();
    if (mine?.idle) this.callers.delete(t.caller!);
  }

  reset(): void {
    this.all.reset();
    this.callers.clear();
    this.missedBy.clear();
  }

  private callerCircuit(caller: string): Circuit {
    let c = this.callers.get(caller);
    if (c) return c;
    if (this.callers.size >= MAX_CALLERS) this.callers.delete(this.callers.keys().next().value!);
    this.callers.set(caller, (c = new Circuit({ service: this.service, caller }, this.opts)));
    return c;
  }
}

/**
 * A bus whose requests fail fast while a service does not answer. It counts only what says the
 * service is not there — timeouts and no-responders — never an answer, whatever its status (a 429
 * or 503 a live service sends when busy is an answer), and never a failure on the caller's side (a
 * message too large, a chunk that did not come, a request whose holder went away). After
 * `failures` such calls in a row on one service's subjects (`svc.<service>.…`), that service's
 * circuit opens: its requests are refused at once with a 503 (and Retry-After) instead of each
 * waiting out the bus timeout. After `openMs` one trial request goes through; an answer closes the
 * circuit, another miss opens it again. Timeouts of calls made for a caller (`RequestOptions.caller`,
 * the partner at the gateway) open that caller's circuit first (ServiceCircuits).
 *
 * When the adapter reports its connection down (NATS: disconnected), every request is refused at
 * once the same way, before any timeout, and every circuit closes when the connection is back. Only
 * `request` is guarded: events and jobs are durable and retried by the bus itself.
 */
export class CircuitBreakerBus implements Bus {
  private readonly services = new Map<string, ServiceCircuits>();
  private readonly opts: CircuitSettings;
  private connected = true;
  private readonly unwatch: (() => void) | undefined;

  constructor(
    private readonly inner: Bus,
    opts: CircuitOptions = {},
  ) {
    this.opts = { failures: opts.failures ?? 2, openMs: opts.openMs ?? 2000, logger: opts.logger };
    this.unwatch = inner.onConnection?.((up) => this.connection(up));
  }

  async request(subject: string, payload: unknown, opts?: RequestOptions): Promise<BusReply> {
    const service = serviceOf(subject);
    if (!this.connected)
      throw new UnavailableError({
        message: `${service} is not answering (the message bus is disconnected); try again shortly`,
        retryAfterSeconds: this.opts.openMs / 1000,
      });
    const circuits = this.circuitsOf(service);
    const ticket = circuits.admit(opts?.caller);
    try {
      const reply = await this.inner.request(subject, payload, opts);
      circuits.answered(ticket);
      return reply;
    } catch (err) {
      if (err instanceof TimeoutError) circuits.missed(ticket, true);
      else if (err instanceof NoRespondersError) circuits.missed(ticket, false);
      else circuits.settled(ticket);
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
      for (const c of this.services.values()) c.reset();
      this.opts.logger?.info('bus connection back: calls go through again');
    } else this.opts.logger?.warn('bus connection lost: calls fail fast with 503 until it is back');
  }

  private circuitsOf(service: string): ServiceCircuits {
    let circuits = this.services.get(service);
    if (!circuits) this.services.set(service, (circuits = new ServiceCircuits(service, this.opts)));
    return circuits;
  }
}

/** `svc.<service>.…` → `<service>`; any other subject is its own circuit. */
function serviceOf(subject: string): string {
  const parts = subject.split('.');
  return parts[0] === 'svc' && parts[1] ? parts[1] : subject;
}

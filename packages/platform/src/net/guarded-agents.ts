import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isForbiddenAddress } from './address-ranges';
import { AddressNotAllowedError } from './address-not-allowed-error';
import { guardedLookup } from './guarded-lookup';

type ConnectOptions = http.ClientRequestArgs & { lookup?: unknown };
type Created = (err: Error | null, socket?: Duplex) => void;

/** Options of the guarded agents: Node's, and the destinations that are let through unchecked. */
export interface GuardOptions {
  /**
   * `host` (as the request names it, lower case, IPv6 without brackets) and port of a destination an
   * operator allowed explicitly (a store configured with private addresses allowed, sharing a
   * process-wide agent with guarded ones). Default: none.
   */
  trusted?: (host: string, port: number) => boolean;
}

/**
 * The check every guarded agent makes before a socket is opened: an address given literally is
 * judged at once (Node does not call `lookup` for one), a name is resolved by guardedLookup.
 * Returns the refusal, or undefined with `options.lookup` set to the guard.
 */
function guard(options: ConnectOptions, trusted: GuardOptions['trusted']): AddressNotAllowedError | undefined {
  const host = String(options.host ?? options.hostname ?? 'localhost')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (trusted?.(host, Number(options.port))) return undefined;
  if (isIP(host)) return isForbiddenAddress(host) ? new AddressNotAllowedError(host) : undefined;
  options.lookup = guardedLookup;
  return undefined;
}

/**
 * An http.Agent that never connects to a forbidden address (address-ranges.ts), however the
 * address was written or whatever a name resolves to when the socket is opened. A refused
 * connection fails its request with AddressNotAllowedError before any packet is sent.
 */
export class GuardedHttpAgent extends http.Agent {
  private readonly trusted: GuardOptions['trusted'];

  constructor(options: http.AgentOptions & GuardOptions = {}) {
    super(options);
    this.trusted = options.trusted;
  }

  override createConnection(options: ConnectOptions, created: Created): Duplex | undefined {
    const refused = guard(options, this.trusted);
    if (refused) {
      created(refused);
      return undefined;
    }
    // why: Node's typing says createConnection returns a Socket; its http.Agent also takes a callback.
    return (
      http.Agent.prototype as unknown as { createConnection: (o: unknown, c: Created) => Socket }
    ).createConnection.call(this, options, created);
  }
}

/** The https.Agent of GuardedHttpAgent: the same check before the TCP connection under TLS. */
export class GuardedHttpsAgent extends https.Agent {
  private readonly trusted: GuardOptions['trusted'];

  constructor(options: https.AgentOptions & GuardOptions = {}) {
    super(options);
    this.trusted = options.trusted;
  }

  override createConnection(options: ConnectOptions, created: Created): Duplex | undefined {
    const refused = guard(options, this.trusted);
    if (refused) {
      created(refused);
      return undefined;
    }
    // why: as above, Node's typing of https.Agent's createConnection omits its callback.
    return (
      https.Agent.prototype as unknown as { createConnection: (o: unknown, c: Created) => Socket }
    ).createConnection.call(this, options, created);
  }
}

export interface OutboundAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * The agents a client of partner-chosen addresses connects through: guarded unless `allowPrivate`
 * (a test, or a deployment whose partners' storage is on its own private network), plain otherwise.
 */
export function outboundAgents(opts: { allowPrivate: boolean; keepAlive?: boolean }): OutboundAgents {
  const options = { keepAlive: opts.keepAlive ?? true, maxSockets: 50 };
  return opts.allowPrivate
    ? { http: new http.Agent(options), https: new https.Agent(options) }
    : { http: new GuardedHttpAgent(options), https: new GuardedHttpsAgent(options) };
}

/**
 * Where the Google library's sockets go through the outbound-address guard (@patchbay/platform).
 *
 * The library talks three ways: the JSON API (metadata, reads, deletes, lists) through teeny-request,
 * which ignores any agent a request names and takes one from its own process-wide pool; resumable
 * sessions through gaxios, which takes the request's `agent`; and the session PUT, which is ours
 * (session-upload.ts). So teeny-request's pool is given guarded agents once per process, and a store
 * that allows private addresses (tests, a private deployment) lets exactly its own endpoint's host
 * and port through them; everything else (another host, a name that resolves to 127.0.0.1 when the
 * socket opens, the host a redirect names) is refused before it is connected to.
 */
import { pool } from 'teeny-request/build/src/agents';
import { GuardedHttpAgent, GuardedHttpsAgent, outboundAgents, type OutboundAgents } from '@patchbay/platform';

const trusted = new Set<string>();
const isTrusted = (host: string, port: number) => trusted.has(`${host}:${port}`);
let installed = false;

/** Puts guarded agents in teeny-request's pool (the keys it uses for `forever` requests, which the library makes). */
function install(): void {
  if (installed) return;
  installed = true;
  const options = { keepAlive: true, maxSockets: Infinity, trusted: isTrusted };
  pool.set('http:forever', new GuardedHttpAgent(options));
  pool.set('https:forever', new GuardedHttpsAgent(options));
}

/**
 * The agents of one store (for gaxios and the session PUT), after making sure the JSON API's are
 * guarded too. `endpoint` is the store's API root; with `allowPrivate` its host and port are trusted.
 */
export function guardedTransport(endpoint: string, allowPrivate: boolean): OutboundAgents {
  install();
  if (allowPrivate) {
    const url = new URL(endpoint);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    trusted.add(`${url.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`);
  }
  return outboundAgents({ allowPrivate });
}

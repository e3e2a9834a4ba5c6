import http from 'node:http';
import net from 'node:net';
import type { HostPort } from './sender';

/**
 * An agent that sends firebase-admin's `https://fcm.googleapis.com` and
 * `https://oauth2.googleapis.com` requests, in plain HTTP, to one local endpoint: it claims the
 * `https:` protocol (so `https.request` accepts it) but opens plain TCP sockets to `endpoint`.
 * firebase-admin's hosts are hard-coded and it has no emulator for FCM; this is how tests and
 * benchmarks aim the real SDK at a fake server (TOOLCHAIN.md, "Testing push without the internet").
 */
export function localEndpointAgent(endpoint: HostPort, maxSockets: number): http.Agent {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  // `protocol` is an undocumented field of Agent that https.request checks against the URL.
  (agent as http.Agent & { protocol: string }).protocol = 'https:';
  agent.createConnection = () => net.connect(endpoint.port, endpoint.host);
  return agent;
}

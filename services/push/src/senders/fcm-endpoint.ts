import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { Http2Origin } from './http2-origin';
import type { HostPort } from './sender';

/** FCM HTTP v1's host: every send goes to `https://fcm.googleapis.com/v1/projects/<id>/messages:send`. */
export const FCM_ORIGIN = 'https://fcm.googleapis.com';
/** Requests in flight on one session: FCM's own limit per HTTP/2 connection (firebase-admin uses the same). */
export const FCM_MAX_STREAMS = 100;

/**
 * A local server that stands in for Google in tests and benchmarks (FCM_ENDPOINT and FCM_CA): the
 * connections to `fcm.googleapis.com` and `oauth2.googleapis.com` go to `host:port` instead, and TLS
 * is checked as always — the server must present a certificate for those names signed by `ca`. Only
 * where the bytes go changes, not what is sent or how it is verified.
 */
export interface FcmTestEndpoint extends HostPort {
  /** PEM of the CA the local server's certificate chains to. */
  ca: string;
}

/** A TLS connection to the test endpoint that verifies the certificate against `servername`. */
function connectTo(endpoint: FcmTestEndpoint, servername: string, alpn: string[]): tls.TLSSocket {
  return tls.connect({ host: endpoint.host, port: endpoint.port, ca: endpoint.ca, servername, ALPNProtocols: alpn });
}

/** Builds the FCM session of one sender: Google's host, or the test endpoint in its place. */
export function fcmOrigin(endpoint: FcmTestEndpoint | undefined): Http2Origin {
  const createConnection = endpoint
    ? (): Duplex => connectTo(endpoint, new URL(FCM_ORIGIN).hostname, ['h2'])
    : undefined;
  return new Http2Origin(FCM_ORIGIN, { createConnection, maxStreams: FCM_MAX_STREAMS });
}

/**
 * The agent google-auth-library's token requests use with a test endpoint (its token URL,
 * `https://oauth2.googleapis.com/token`, is fixed); undefined means Google's host.
 */
export function tokenAgent(endpoint: FcmTestEndpoint | undefined): https.Agent | undefined {
  if (!endpoint) return undefined;
  const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
  // https.request gives the URL's host as `servername`; only the address the socket opens is replaced.
  agent.createConnection = (options: tls.ConnectionOptions) =>
    tls.connect({ ...options, host: endpoint.host, port: endpoint.port, ca: endpoint.ca });
  return agent;
}

import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { DeviceEnvironment } from '@patchbay/contracts';
import { Http2Origin } from './http2-origin';
import type { HostPort } from './sender';

/** Apple's provider API hosts, per device environment. */
export const APNS_HOSTS: Record<DeviceEnvironment, string> = {
  production: 'api.push.apple.com',
  development: 'api.sandbox.push.apple.com',
};
/** Requests in flight on one session (Apple allows up to 1000 concurrent streams per connection). */
export const APNS_MAX_STREAMS = 1000;

/** Where one sender's APNs session goes and how its TLS is set up (plain data: it crosses threads). */
export interface ApnsConnection extends HostPort {
  /** PEM of the CA the endpoint's certificate chains to (APNS_CA); unset trusts Node's CAs. */
  ca?: string;
  /** Accept any server certificate (APNS_INSECURE: local fakes only). */
  insecure: boolean;
  /** Certificate auth: the TLS client certificate and its key (PEM). */
  certificate?: { cert: string; key: string };
}

/** Apple's host for `environment`, or the local endpoint (APNS_ENDPOINT / APNS_SANDBOX_ENDPOINT) in its place. */
export function apnsConnection(
  environment: DeviceEnvironment,
  endpoint: HostPort | undefined,
  tlsOptions: { ca?: string; insecure: boolean; certificate?: { cert: string; key: string } },
): ApnsConnection {
  return { ...(endpoint ?? { host: APNS_HOSTS[environment], port: 443 }), ...tlsOptions };
}

/**
 * The HTTP/2 session of one sender: TLS to `host:port` (the server name checked against `host`
 * unless it is an IP address), with the client certificate when the sender has one.
 */
export function apnsOrigin(c: ApnsConnection): Http2Origin {
  const createConnection = (): Duplex =>
    tls.connect({
      host: c.host,
      port: c.port,
      ...(net.isIP(c.host) ? {} : { servername: c.host }),
      ...(c.ca ? { ca: [c.ca] } : {}),
      ...(c.insecure ? { rejectUnauthorized: false } : {}),
      ...(c.certificate ? { cert: c.certificate.cert, key: c.certificate.key } : {}),
      ALPNProtocols: ['h2'],
    });
  return new Http2Origin(`https://${c.host}:${c.port}`, { createConnection, maxStreams: APNS_MAX_STREAMS });
}

import type { Logger } from '@patchbay/platform';
import type { DeviceEnvironment, PushResult } from '@patchbay/contracts';
import { Notification, Provider } from '@parse/node-apn';
import { apnsRequest } from '../domain/apns-request';
import { apnsOutcome, done, type AttemptOutcome, type ApnsFailure } from '../domain/outcome';
import type { PushMessage } from '../domain/push-message';
import { deliverWithRetries, type RetryPolicy } from '../domain/retry';
import { InFlight } from './in-flight';
import { SenderConfigError, type DeviceTarget, type HostPort, type PushSender } from './sender';

export type ApnsAuth =
  { kind: 'token'; key: string; keyId: string; teamId: string } | { kind: 'certificate'; cert: string; key: string };

export interface ApnsSenderOptions {
  applicationSid: string;
  environment: DeviceEnvironment;
  auth: ApnsAuth;
  /** `apns-topic` (the bundle ID); certificate auth may leave it to the certificate's subject. */
  topic?: string;
  /** A local APNs server instead of Apple's host for this environment. */
  endpoint?: HostPort;
  ca?: string;
  insecure: boolean;
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  log: Logger;
}

/**
 * iOS devices of one application and one environment through one @parse/node-apn Provider: one
 * HTTP/2 connection, kept open and reused across sends, requests multiplexed on it. node-apn's own
 * retries (immediate, no backoff) are off; deliverWithRetries retries 429/5xx and connection
 * failures with backoff instead.
 */
export class ApnsSender implements PushSender {
  private readonly provider: Provider;
  private readonly inFlight = new InFlight();

  constructor(private readonly opts: ApnsSenderOptions) {
    const auth =
      opts.auth.kind === 'token'
        ? { token: { key: opts.auth.key, keyId: opts.auth.keyId, teamId: opts.auth.teamId } }
        : { cert: opts.auth.cert, key: opts.auth.key };
    try {
      this.provider = new Provider({
        ...auth,
        production: opts.environment === 'production',
        ...(opts.endpoint ? { address: opts.endpoint.host, port: opts.endpoint.port } : {}),
        ...(opts.ca ? { ca: [opts.ca] } : {}),
        ...(opts.insecure ? { rejectUnauthorized: false } : {}),
        requestTimeout: opts.attemptTimeoutMs,
        connectionRetryLimit: 0,
      });
    } catch (err) {
      throw new SenderConfigError(`cannot build the APNs client (${opts.environment}): ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  send(message: PushMessage, devices: DeviceTarget[], deadline: number): Promise<Map<string, PushResult>> {
    const request = apnsRequest(message, this.opts.topic);
    return this.inFlight.track(
      deliverWithRetries(devices, (pending) => this.attempt(request, pending), this.opts.retry, deadline, {
        onRetry: (n, sids, detail) =>
          this.opts.log.warn(
            {
              application_sid: this.opts.applicationSid,
              environment: this.opts.environment,
              retry: n,
              devices: sids.length,
              detail,
            },
            'APNs transient failure, retrying',
          ),
        onProviderError: (sids, detail) =>
          this.opts.log.warn(
            {
              application_sid: this.opts.applicationSid,
              environment: this.opts.environment,
              devices: sids.length,
              device_sids: sids.slice(0, 10),
              detail,
            },
            'APNs delivery failed',
          ),
      }),
    );
  }

  private async attempt(
    request: ReturnType<typeof apnsRequest>,
    pending: DeviceTarget[],
  ): Promise<Map<string, AttemptOutcome>> {
    const note = new Notification();
    note.rawPayload = request.payload;
    note.pushType = request.pushType;
    note.priority = request.priority;
    if (request.expiry !== undefined) note.expiry = request.expiry;
    if (request.collapseId !== undefined) note.collapseId = request.collapseId;
    if (request.topic !== undefined) note.topic = request.topic;
    const byToken = new Map<string, string[]>();
    for (const d of pending) byToken.set(d.token, [...(byToken.get(d.token) ?? []), d.device_sid]);
    const outcomes = new Map<string, AttemptOutcome>();
    const { sent, failed } = await this.provider.send(note, [...byToken.keys()]);
    for (const s of sent) for (const sid of byToken.get(s.device) ?? []) outcomes.set(sid, done('success'));
    for (const f of failed) {
      const outcome = apnsOutcome(f as ApnsFailure);
      for (const sid of byToken.get(f.device) ?? []) outcomes.set(sid, outcome);
    }
    return outcomes;
  }

  async close(): Promise<void> {
    await this.inFlight.drain();
    await this.provider.shutdown();
  }
}

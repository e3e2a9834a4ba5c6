import type { Logger } from '@patchbay/platform';
import type { DeviceEnvironment, PushResult } from '@patchbay/contracts';
import { apnsRequest } from '../domain/apns-request';
import type { PushMessage } from '../domain/push-message';
import type { RetryPolicy } from '../domain/retry';
import { checkApnsCertificate } from './apns-certificate';
import type { ApnsAuth, ApnsJob } from './apns-job';
import { APNS_HOSTS, apnsConnection, type ApnsConnection } from './apns-origin';
import { ApnsProviderToken } from './apns-token';
import { InFlight } from './in-flight';
import { logJob, nextHome, planLanes } from './lanes';
import type { SendRunner } from './send-runner';
import { SenderConfigError, type DeviceTarget, type HostPort, type PushSender } from './sender';

export type { ApnsAuth } from './apns-job';

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
  runner: SendRunner;
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  log: Logger;
  /** The clock provider tokens are signed and refreshed by (tests). */
  now?: () => number;
}

/**
 * iOS devices of one application and one environment through Apple's HTTP/2 provider API, sent by
 * Patchbay itself (apns-job.ts) on the send lanes (worker threads): one HTTP/2 session per lane the
 * sender has used, opened on its first job there and kept open across sends. Token auth: one ES256
 * provider token, signed and kept here (apns-token.ts) and carried by every job; certificate auth:
 * the client certificate on each session's TLS. A send is cut into slices of distinct tokens over
 * the lanes (lanes.ts); a device that shares its token with another gets the same result.
 * Credentials that cannot work throw SenderConfigError here, before any job.
 */
export class ApnsSender implements PushSender {
  private readonly connection: ApnsConnection;
  private readonly token?: ApnsProviderToken;
  private readonly inFlight = new InFlight();
  private readonly home = nextHome();
  private readonly id: string;

  constructor(private readonly opts: ApnsSenderOptions) {
    this.id = `apns ${opts.applicationSid} ${opts.environment}#${this.home}`;
    const { auth } = opts;
    try {
      if (auth.kind === 'token') this.token = new ApnsProviderToken(auth, opts.now);
      else {
        // As node-apn: a local endpoint counts as the sandbox, whatever the devices' environment.
        const appleProduction = opts.endpoint
          ? opts.endpoint.host === APNS_HOSTS.production
          : opts.environment === 'production';
        checkApnsCertificate(auth.cert, auth.key, appleProduction, opts.now?.());
      }
    } catch (err) {
      throw new SenderConfigError(
        `cannot build the APNs client (${opts.environment}): ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
    this.connection = apnsConnection(opts.environment, opts.endpoint, {
      ca: opts.ca,
      insecure: opts.insecure,
      ...(auth.kind === 'certificate' ? { certificate: { cert: auth.cert, key: auth.key } } : {}),
    });
  }

  send(message: PushMessage, devices: DeviceTarget[], deadline: number): Promise<Map<string, PushResult>> {
    return this.inFlight.track(this.deliver(message, devices, deadline));
  }

  private async deliver(
    message: PushMessage,
    devices: DeviceTarget[],
    deadline: number,
  ): Promise<Map<string, PushResult>> {
    const request = apnsRequest(message, this.opts.topic);
    const authorization = this.token?.authorization();
    const byToken = new Map<string, string[]>();
    for (const d of devices) {
      const sids = byToken.get(d.token);
      if (sids) sids.push(d.device_sid);
      else byToken.set(d.token, [d.device_sid]);
    }
    const results = new Map<string, PushResult>();
    const fields = { application_sid: this.opts.applicationSid, environment: this.opts.environment };
    await Promise.all(
      planLanes([...byToken.keys()], this.opts.runner.lanes, this.home).map(({ lane, items: tokens }) => {
        const job: ApnsJob = {
          kind: 'apns',
          sender: this.id,
          connection: this.connection,
          ...(authorization ? { authorization } : {}),
          request,
          tokens,
          deadline,
          retry: this.opts.retry,
          attemptTimeoutMs: this.opts.attemptTimeoutMs,
        };
        const sidsAt = (i: number) => byToken.get(tokens[i]) ?? [];
        return this.opts.runner.run(lane, job).then(
          (r) => {
            if (r.expiredToken && authorization) this.token?.expired(authorization);
            r.results.forEach((result, i) => {
              for (const sid of sidsAt(i)) results.set(sid, result);
            });
            logJob(this.opts.log, 'APNs', fields, r, sidsAt);
          },
          (err: unknown) => {
            for (const t of tokens) for (const sid of byToken.get(t) ?? []) results.set(sid, 'provider_error');
            this.opts.log.error({ ...fields, devices: tokens.length, err }, 'APNs send failed');
          },
        );
      }),
    );
    return results;
  }

  async close(): Promise<void> {
    await this.inFlight.drain();
    await this.opts.runner.release(this.id);
  }
}

import type https from 'node:https';
import type { Logger } from '@patchbay/platform';
import type { PushResult } from '@patchbay/contracts';
import type { ServiceAccount } from '../domain/credentials';
import { fcmBody, fcmMessage } from '../domain/fcm-message';
import type { PushMessage } from '../domain/push-message';
import { withTimeout, type RetryPolicy } from '../domain/retry';
import type { FcmJob, FcmJobResult } from './fcm-job';
import type { FcmRunner } from './fcm-runner';
import { GoogleAccessToken } from './google-token';
import { InFlight } from './in-flight';
import type { DeviceTarget, PushSender } from './sender';

/** Fewest devices worth a lane of their own: a smaller send stays on one (the next one, in turn). */
export const MIN_SLICE = 25;

export interface FcmSenderOptions {
  applicationSid: string;
  serviceAccount: ServiceAccount;
  runner: FcmRunner;
  /** The token exchange's agent for a test endpoint (fcm-endpoint.ts); unset means Google. */
  tokenAgent?: https.Agent;
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  log: Logger;
}

let instances = 0;

/**
 * Android and browser devices through FCM HTTP v1, for one application: its OAuth token from its
 * service account (google-auth-library), one message body per platform serialized once, each
 * device its own HTTP/2 stream on long-lived sessions of this sender — one per lane (worker
 * thread) it has used, kept open across sends until the sender is closed. A send of many devices
 * is cut into contiguous slices, one per lane, and the per-device results are put back by position.
 *
 * firebase-admin's `sendEach` is not used: it opens and closes an HTTP/2 session for every call
 * (13.x and 14.x alike), which is what made the direct client the faster way to send.
 */
export class FcmSender implements PushSender {
  private readonly id: string;
  private readonly token: GoogleAccessToken;
  private readonly path: string;
  private readonly inFlight = new InFlight();
  private nextLane = 0;

  constructor(private readonly opts: FcmSenderOptions) {
    this.id = `${opts.applicationSid}#${++instances}`;
    this.token = new GoogleAccessToken(opts.serviceAccount, opts.tokenAgent);
    this.path = `/v1/projects/${encodeURIComponent(opts.serviceAccount.project_id)}/messages:send`;
  }

  send(message: PushMessage, devices: DeviceTarget[], deadline: number): Promise<Map<string, PushResult>> {
    return this.inFlight.track(this.deliver(message, devices, deadline));
  }

  private async deliver(
    message: PushMessage,
    devices: DeviceTarget[],
    deadline: number,
  ): Promise<Map<string, PushResult>> {
    const results = new Map<string, PushResult>();
    let authorization: string | undefined;
    try {
      authorization = await withTimeout(this.token.authorization(), deadline - Date.now(), () => undefined);
    } catch (err) {
      this.opts.log.warn(
        { application_sid: this.opts.applicationSid, devices: devices.length, reason: (err as Error).message },
        'FCM OAuth token exchange failed',
      );
    }
    if (!authorization) {
      for (const d of devices) results.set(d.device_sid, 'provider_error');
      return results;
    }
    const runs: Promise<void>[] = [];
    for (const platform of ['android', 'web'] as const) {
      const targets = devices.filter((d) => (platform === 'web' ? d.type === 'web' : d.type !== 'web'));
      if (targets.length === 0) continue;
      const body = fcmBody(fcmMessage(message, platform));
      for (const slice of this.slices(targets)) {
        const job: FcmJob = {
          sender: this.id,
          path: this.path,
          authorization,
          body,
          tokens: slice.map((d) => d.token),
          deadline,
          retry: this.opts.retry,
          attemptTimeoutMs: this.opts.attemptTimeoutMs,
        };
        const lane = this.nextLane++ % this.opts.runner.lanes;
        runs.push(
          this.opts.runner.run(lane, job).then(
            (r) => {
              r.results.forEach((result, i) => results.set(slice[i].device_sid, result));
              this.report(platform, slice, r);
            },
            (err: unknown) => {
              for (const d of slice) results.set(d.device_sid, 'provider_error');
              this.opts.log.error(
                { application_sid: this.opts.applicationSid, platform, devices: slice.length, err },
                'FCM send failed',
              );
            },
          ),
        );
      }
    }
    await Promise.all(runs);
    return results;
  }

  /** Contiguous slices, one per lane, none smaller than MIN_SLICE (but the only one). */
  private slices(targets: DeviceTarget[]): DeviceTarget[][] {
    const count = Math.max(1, Math.min(this.opts.runner.lanes, Math.floor(targets.length / MIN_SLICE)));
    const size = Math.ceil(targets.length / count);
    return Array.from({ length: count }, (_, i) => targets.slice(i * size, (i + 1) * size)).filter((s) => s.length);
  }

  private report(platform: string, slice: DeviceTarget[], r: FcmJobResult): void {
    const app = this.opts.applicationSid;
    for (const retry of r.retries)
      this.opts.log.warn(
        { application_sid: app, platform, retry: retry.n, devices: retry.devices, detail: retry.detail },
        'FCM transient failure, retrying',
      );
    if (r.failed)
      this.opts.log.warn(
        {
          application_sid: app,
          platform,
          devices: r.failed.indexes.length,
          device_sids: r.failed.indexes.slice(0, 10).map((i) => slice[i].device_sid),
          detail: r.failed.detail,
        },
        'FCM delivery failed',
      );
  }

  async close(): Promise<void> {
    await this.inFlight.drain();
    await this.opts.runner.release(this.id);
  }
}

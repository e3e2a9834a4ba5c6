import type https from 'node:https';
import type { Logger } from '@patchbay/platform';
import type { PushResult } from '@patchbay/contracts';
import type { ServiceAccount } from '../domain/credentials';
import { fcmBody, fcmMessage } from '../domain/fcm-message';
import type { PushMessage } from '../domain/push-message';
import { withTimeout, type RetryPolicy } from '../domain/retry';
import type { FcmJob } from './fcm-job';
import { GoogleAccessToken } from './google-token';
import { InFlight } from './in-flight';
import { logJob, nextHome, planLanes } from './lanes';
import type { SendRunner } from './send-runner';
import type { DeviceTarget, PushSender } from './sender';

export interface FcmSenderOptions {
  applicationSid: string;
  serviceAccount: ServiceAccount;
  runner: SendRunner;
  /** The token exchange's agent for a test endpoint (fcm-endpoint.ts); unset means Google. */
  tokenAgent?: https.Agent;
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  log: Logger;
}

/**
 * Android and browser devices through FCM HTTP v1, for one application: its OAuth token from its
 * service account (google-auth-library), one message body per platform serialized once, each
 * device its own HTTP/2 stream on long-lived sessions of this sender — one per lane (worker
 * thread) it has used, kept open across sends until the sender is closed. A send of many devices
 * is cut into contiguous slices, one per lane (lanes.ts), and the per-device results are put back
 * by position.
 *
 * firebase-admin's `sendEach` is not used: it opens and closes an HTTP/2 session for every call
 * (13.x and 14.x alike), which is what made the direct client the faster way to send.
 */
export class FcmSender implements PushSender {
  private readonly id: string;
  private readonly token: GoogleAccessToken;
  private readonly path: string;
  private readonly inFlight = new InFlight();
  private readonly home = nextHome();

  constructor(private readonly opts: FcmSenderOptions) {
    this.id = `fcm ${opts.applicationSid}#${this.home}`;
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
        {
          application_sid: this.opts.applicationSid,
          devices: devices.length,
          reason: err instanceof Error ? err.message : String(err),
        },
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
      for (const { lane, items: slice } of planLanes(targets, this.opts.runner.lanes, this.home)) {
        const job: FcmJob = {
          kind: 'fcm',
          sender: this.id,
          path: this.path,
          authorization,
          body,
          tokens: slice.map((d) => d.token),
          deadline,
          retry: this.opts.retry,
          attemptTimeoutMs: this.opts.attemptTimeoutMs,
        };
        const fields = { application_sid: this.opts.applicationSid, platform };
        runs.push(
          this.opts.runner.run(lane, job).then(
            (r) => {
              r.results.forEach((result, i) => results.set(slice[i].device_sid, result));
              logJob(this.opts.log, 'FCM', fields, r, (i) => [slice[i].device_sid]);
            },
            (err: unknown) => {
              for (const d of slice) results.set(d.device_sid, 'provider_error');
              this.opts.log.error({ ...fields, devices: slice.length, err }, 'FCM send failed');
            },
          ),
        );
      }
    }
    await Promise.all(runs);
    return results;
  }

  async close(): Promise<void> {
    await this.inFlight.drain();
    await this.opts.runner.release(this.id);
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import type { Logger } from '@patchbay/platform';
import type { PushResult } from '@patchbay/contracts';
import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getMessaging, type Messaging, type BatchResponse } from 'firebase-admin/messaging';
import type { ServiceAccount } from '../domain/credentials';
import { fcmMessage } from '../domain/fcm-message';
import { again, done, fcmOutcome, type AttemptOutcome } from '../domain/outcome';
import type { PushMessage } from '../domain/push-message';
import { deliverWithRetries, withTimeout, type RetryPolicy } from '../domain/retry';
import { localEndpointAgent } from './local-endpoint-agent';
import { InFlight } from './in-flight';
import { SenderConfigError, type DeviceTarget, type HostPort, type PushSender } from './sender';

/** FCM accepts at most 500 messages per batch call. */
export const FCM_BATCH = 500;

export interface FcmSenderOptions {
  applicationSid: string;
  serviceAccount: ServiceAccount;
  /** A local server speaking FCM HTTP v1 and the OAuth token exchange, instead of Google. */
  endpoint?: HostPort;
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  log: Logger;
}

let instances = 0;

/**
 * Android and browser devices through Firebase Cloud Messaging, for one application: its own
 * *named* firebase app (a second `initializeApp` on the default app would silently keep the first
 * credential), batches of 500 through `sendEachForMulticast`, per-token results.
 *
 * With an `endpoint`, requests go there in plain HTTP/1.1 (see localEndpointAgent): the service
 * account is written to a private temporary file because firebase-admin routes the token exchange
 * through the agent only for a key file given by path, and the legacy HTTP/1.1 transport is
 * enabled because the HTTP/2 one ignores the agent.
 */
export class FcmSender implements PushSender {
  private readonly app: App;
  private readonly messaging: Messaging;
  private readonly agent?: http.Agent;
  private readonly keyFile?: string;
  private readonly inFlight = new InFlight();

  constructor(private readonly opts: FcmSenderOptions) {
    const sa = opts.serviceAccount;
    const name = `patchbay-push-${opts.applicationSid}-${++instances}`;
    try {
      if (opts.endpoint) {
        this.agent = localEndpointAgent(opts.endpoint, 64);
        this.keyFile = writeKeyFile(name, sa);
        this.app = initializeApp(
          { credential: cert(this.keyFile, this.agent), httpAgent: this.agent, projectId: sa.project_id },
          name,
        );
      } else {
        this.app = initializeApp(
          {
            credential: cert({ projectId: sa.project_id, clientEmail: sa.client_email, privateKey: sa.private_key }),
            projectId: sa.project_id,
          },
          name,
        );
      }
      this.messaging = getMessaging(this.app);
      if (opts.endpoint) this.messaging.enableLegacyHttpTransport();
    } catch (err) {
      this.agent?.destroy();
      if (this.keyFile) fs.rmSync(path.dirname(this.keyFile), { recursive: true, force: true });
      throw new SenderConfigError(`cannot build the FCM client: ${(err as Error).message}`, { cause: err });
    }
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
    const runs: Promise<void>[] = [];
    for (const platform of ['android', 'web'] as const) {
      const targets = devices.filter((d) => (platform === 'web' ? d.type === 'web' : d.type !== 'web'));
      const payload = fcmMessage(message, platform);
      for (let i = 0; i < targets.length; i += FCM_BATCH) {
        const chunk = targets.slice(i, i + FCM_BATCH);
        runs.push(
          deliverWithRetries(chunk, (pending) => this.attempt(payload, pending), this.opts.retry, deadline, {
            onRetry: (n, sids, detail) =>
              this.opts.log.warn(
                { application_sid: this.opts.applicationSid, platform, retry: n, devices: sids.length, detail },
                'FCM transient failure, retrying',
              ),
            onProviderError: (sids, detail) =>
              this.opts.log.warn(
                {
                  application_sid: this.opts.applicationSid,
                  platform,
                  devices: sids.length,
                  device_sids: sids.slice(0, 10),
                  detail,
                },
                'FCM delivery failed',
              ),
          }).then((r) => {
            for (const [sid, result] of r) results.set(sid, result);
          }),
        );
      }
    }
    await Promise.all(runs);
    return results;
  }

  /** One batch call; every device gets an outcome (a timeout is final: the batch may have been delivered). */
  private async attempt(
    payload: ReturnType<typeof fcmMessage>,
    pending: DeviceTarget[],
  ): Promise<Map<string, AttemptOutcome>> {
    const all = (o: AttemptOutcome) => new Map(pending.map((d) => [d.device_sid, o]));
    let response: BatchResponse | 'timeout';
    try {
      response = await withTimeout<BatchResponse | 'timeout'>(
        this.messaging.sendEachForMulticast({ ...payload, tokens: pending.map((d) => d.token) }),
        this.opts.attemptTimeoutMs,
        () => 'timeout',
      );
    } catch (err) {
      // A whole-batch rejection: the HTTP/2 session failed (transient), or the SDK refused the message.
      // (firebase-admin does not export FirebaseMessagingSessionError; it is the one carrying pendingBatchResponse.)
      if (err && typeof err === 'object' && 'pendingBatchResponse' in err)
        return all(again(`HTTP/2 session error: ${String((err as { message?: unknown }).message)}`));
      return all(done('provider_error', `${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message}`));
    }
    if (response === 'timeout') return all(done('provider_error', `no answer within ${this.opts.attemptTimeoutMs} ms`));
    const outcomes = new Map<string, AttemptOutcome>();
    response.responses.forEach((r, i) => {
      outcomes.set(pending[i].device_sid, r.success ? done('success') : fcmOutcome(r.error?.code, r.error?.message));
    });
    return outcomes;
  }

  async close(): Promise<void> {
    await this.inFlight.drain();
    await deleteApp(this.app).catch(() => undefined);
    this.agent?.destroy();
    if (this.keyFile) fs.rmSync(path.dirname(this.keyFile), { recursive: true, force: true });
  }
}

/** The service account as a file only this process can read, removed again on close. */
function writeKeyFile(name: string, sa: ServiceAccount): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-push-'));
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(sa), { mode: 0o600 });
  return file;
}

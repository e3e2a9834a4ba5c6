/**
 * Runs FcmSender on worker threads against a fresh HTTP/2 TLS FakeFcm and prints what happened as
 * one JSON line. Started by fcm-sender.test.ts under tsx: google-auth-library's token exchange loads
 * node-fetch 3 (ESM only), which jest's CommonJS mode cannot import.
 */
import fs from 'node:fs';
import { createLogger } from '@patchbay/platform';
import { decodeGoogleCredentials } from '../../src/domain/credentials';
import { toPushMessage } from '../../src/domain/push-message';
import { FcmSender } from '../../src/senders/fcm-sender';
import { tokenAgent, type FcmTestEndpoint } from '../../src/senders/fcm-endpoint';
import type { DeviceTarget } from '../../src/senders/sender';
import { WorkerSendRunner } from '../../src/senders/worker-send-runner';
import { FCM_HOSTS, FakeFcm } from '../../../../tests/support/fake-fcm';
import { fakeServerTls, fakeServiceAccount } from '../../../../tests/support/fake-credentials';

const LANES = 3;

async function main(): Promise<void> {
  const tls = fakeServerTls(FCM_HOSTS);
  const fcm = await FakeFcm.start({ tls });
  const [host, port] = fcm.endpoint.split(':');
  const endpoint: FcmTestEndpoint = { host, port: Number(port), ca: tls.cert };
  const log = createLogger({ name: 'test', level: 'silent' });
  const runner = new WorkerSendRunner(LANES, endpoint, log, 60_000);
  const agent = tokenAgent(endpoint);
  const sender = (projectId: string) => {
    const sa = fakeServiceAccount(projectId);
    fcm.trust(sa);
    return new FcmSender({
      applicationSid: projectId,
      serviceAccount: decodeGoogleCredentials(sa.base64),
      runner,
      tokenAgent: agent,
      attemptTimeoutMs: 10_000,
      retry: { maxRetries: 2, baseMs: 10 },
      log,
    });
  };
  const devices = (n: number, type: 'android' | 'web'): DeviceTarget[] =>
    Array.from({ length: n }, (_, i) => ({
      device_sid: `${type}-${i}`,
      token: `${type}-token-${i}`,
      type,
      environment: 'production',
    }));
  // Every 7th Android token is dead and every 11th malformed: results must land on the right devices.
  const android = devices(1050, 'android');
  for (const [i, d] of android.entries()) {
    if (i % 7 === 3) fcm.answerToken(d.token, 'unregistered');
    else if (i % 11 === 5) fcm.answerToken(d.token, 'invalid');
  }
  const expected = Object.fromEntries([
    ...android.map((d, i) => [d.device_sid, i % 7 === 3 ? 'unregistered' : i % 11 === 5 ? 'invalid_token' : 'success']),
    ...devices(30, 'web').map((d) => [d.device_sid, 'success']),
  ]);
  const [big, one, two, quota] = [sender('fan-out'), sender('app-one'), sender('app-two'), sender('quota')];
  const deadline = () => Date.now() + 60_000;
  const batch = await big.send(
    toPushMessage({ recipients: ['x'], title: 'batch', priority: 'high' }),
    [...android, ...devices(30, 'web')],
    deadline(),
  );
  const empty = toPushMessage({ recipients: ['x'] });
  for (let i = 0; i < 4; i++)
    await Promise.all([
      one.send(empty, devices(2, 'android'), deadline()),
      two.send(empty, devices(3, 'android'), deadline()),
    ]);
  fcm.answerProject('quota', { kind: 'quota', retryAfterSeconds: 1, times: 1 });
  const quotaResult = await quota.send(empty, devices(1, 'android'), deadline());
  const quotaTimes = fcm.forProject('quota').map((r) => ({ status: r.status, at: r.at }));
  await Promise.all([big.close(), one.close(), two.close(), quota.close()]);
  await runner.close();
  agent?.destroy();
  const received = (p: string) => fcm.forProject(p);
  process.stdout.write(
    `${JSON.stringify({
      wrong: Object.entries(expected).filter(([sid, r]) => batch.get(sid) !== r).length,
      results: [...batch.values()].reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {}),
      received: {
        fanOut: received('fan-out').length,
        one: received('app-one').length,
        two: received('app-two').length,
      },
      http2: fcm.received.every((r) => r.httpVersion === '2'),
      connections: {
        fanOut: fcm.connectionsFor('fan-out'),
        one: fcm.connectionsFor('app-one'),
        two: fcm.connectionsFor('app-two'),
      },
      web: received('fan-out').filter(
        (r) =>
          String(r.message.token).startsWith('web') &&
          r.message.webpush?.headers?.Urgency === 'high' &&
          !r.message.android,
      ).length,
      android: received('fan-out').filter(
        (r) =>
          String(r.message.token).startsWith('android') && r.message.android?.priority === 'high' && !r.message.webpush,
      ).length,
      grants: Object.fromEntries(fcm.tokenGrants),
      quota: {
        result: [...quotaResult.values()],
        statuses: quotaTimes.map((q) => q.status),
        waitedMs: quotaTimes.length > 1 ? quotaTimes[1].at - quotaTimes[0].at : null,
      },
    })}\n`,
  );
  await fcm.stop();
  fs.rmSync(tls.dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

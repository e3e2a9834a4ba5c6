/**
 * Runs FcmSender against a fresh FakeFcm and prints what happened as one JSON line. Started by
 * fcm-sender.test.ts under tsx: firebase-admin's token exchange through an agent loads node-fetch
 * 3 (ESM only), which jest's CommonJS mode cannot import.
 */
import { createLogger } from '@patchbay/platform';
import { decodeGoogleCredentials } from '../../src/domain/credentials';
import { toPushMessage } from '../../src/domain/push-message';
import { FcmSender } from '../../src/senders/fcm-sender';
import type { DeviceTarget } from '../../src/senders/sender';
import { FakeFcm } from '../../../../tests/support/fake-fcm';
import { fakeServiceAccount } from '../../../../tests/support/fake-credentials';

async function main(): Promise<void> {
  const fcm = await FakeFcm.start();
  const [host, port] = fcm.endpoint.split(':');
  const sender = (projectId: string) => {
    const sa = fakeServiceAccount(projectId);
    fcm.trust(sa);
    return new FcmSender({
      applicationSid: projectId,
      serviceAccount: decodeGoogleCredentials(sa.base64),
      endpoint: { host, port: Number(port) },
      attemptTimeoutMs: 10_000,
      retry: { maxRetries: 1, baseMs: 10 },
      log: createLogger({ name: 'test', level: 'silent' }),
    });
  };
  const devices = (n: number, type: 'android' | 'web'): DeviceTarget[] =>
    Array.from({ length: n }, (_, i) => ({
      device_sid: `${type}-${i}`,
      token: `${type}-token-${i}`,
      type,
      environment: 'production',
    }));
  const [big, one, two] = [sender('batches'), sender('app-one'), sender('app-two')];
  const deadline = Date.now() + 60_000;
  const batch = await big.send(
    toPushMessage({ recipients: ['x'], title: 'batch', priority: 'high' }),
    [...devices(1050, 'android'), ...devices(30, 'web')],
    deadline,
  );
  const empty = toPushMessage({ recipients: ['x'] });
  await Promise.all([
    one.send(empty, devices(2, 'android'), deadline),
    two.send(empty, devices(3, 'android'), deadline),
  ]);
  await Promise.all([big.close(), one.close(), two.close()]);
  const received = (p: string) => fcm.forProject(p);
  process.stdout.write(
    `${JSON.stringify({
      results: [...batch.values()].reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {}),
      received: {
        batches: received('batches').length,
        one: received('app-one').length,
        two: received('app-two').length,
      },
      web: received('batches').filter(
        (r) =>
          String(r.message.token).startsWith('web') &&
          r.message.webpush?.headers?.Urgency === 'high' &&
          !r.message.android,
      ).length,
      android: received('batches').filter(
        (r) =>
          String(r.message.token).startsWith('android') && r.message.android?.priority === 'high' && !r.message.webpush,
      ).length,
      grants: Object.fromEntries(fcm.tokenGrants),
    })}\n`,
  );
  await fcm.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import fs from 'node:fs';
import { createLogger } from '@patchbay/platform';
import { readP8 } from '../../src/domain/credentials';
import { toPushMessage } from '../../src/domain/push-message';
import { ApnsSender } from '../../src/senders/apns-sender';
import type { DeviceTarget } from '../../src/senders/sender';
import { WorkerSendRunner } from '../../src/senders/worker-send-runner';
// Test-time keys and the HTTP/2 fake APNs shared with the API tests.
import { FakeApns } from '../../../../tests/support/fake-apns';
import { fakeApnsTokenKey, fakeServerTls } from '../../../../tests/support/fake-credentials';
import { untilTrue } from '../../../../tests/support/poll';

/**
 * The send workers start on the first job, not with the service: a process that never sends keeps
 * no worker threads. Concurrent first sends share one launch; the workers end after the idle time
 * and the next send starts them again.
 */
const IDLE_MS = 1500;
const log = createLogger({ name: 'test', level: 'silent' });

test('no worker thread until the first send; one launch for concurrent sends; gone after the idle time', async () => {
  const tls = fakeServerTls();
  const fake = await FakeApns.start({ environment: 'production', tls });
  const key = fakeApnsTokenKey();
  fake.trustKey(key);
  const [host, port] = fake.endpoint.split(':');
  const runner = new WorkerSendRunner(2, undefined, log, IDLE_MS);
  const sender = new ApnsSender({
    applicationSid: 'app',
    environment: 'production',
    auth: { kind: 'token', key: readP8(key.p8), keyId: key.keyId, teamId: key.teamId },
    topic: 'com.example.workers',
    endpoint: { host, port: Number(port) },
    ca: tls.cert,
    insecure: false,
    runner,
    attemptTimeoutMs: 10_000,
    retry: { maxRetries: 0, baseMs: 10 },
    log,
  });
  const devices = (prefix: string, n: number): DeviceTarget[] =>
    Array.from({ length: n }, (_, i) => ({
      device_sid: `${prefix}${i}`,
      token: `${prefix}${i.toString(16).padStart(63, '0')}`,
      type: 'ios',
      environment: 'production',
    }));
  const send = (prefix: string, n: number) =>
    sender.send(toPushMessage({ recipients: ['x'], title: prefix }), devices(prefix, n), Date.now() + 60_000);
  try {
    expect(runner.lanes).toBe(2);
    expect(runner.running).toBe(0);
    expect(runner.launched).toBe(0);

    // Three sends at once, one of 50 devices (two slices, both lanes): one launch of two threads.
    const results = await Promise.all([send('a', 50), send('b', 1), send('c', 1)]);
    expect(results.map((r) => [...r.values()].filter((v) => v === 'success').length)).toEqual([50, 1, 1]);
    expect(runner.launched).toBe(2);
    expect(runner.running).toBe(2);
    expect(fake.received).toHaveLength(52);

    // Idle for IDLE_MS, the threads end.
    await untilTrue(() => runner.running === 0, { what: 'the idle threads to end', timeoutMs: IDLE_MS + 10_000 });

    const again = await send('d', 2);
    expect([...again.values()]).toEqual(['success', 'success']);
    expect(runner.launched).toBe(4);
    expect(runner.running).toBe(2);
  } finally {
    await sender.close();
    await runner.close();
    await fake.stop();
    fs.rmSync(tls.dir, { recursive: true, force: true });
  }
  expect(runner.running).toBe(0);
}, 180_000);

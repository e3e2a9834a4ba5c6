import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * FcmSender on three worker threads against a fake FCM speaking HTTP/2 over TLS (a certificate made
 * at test time for Google's host names). The sender runs in a tsx child process (see
 * fcm-sender-script.ts for why).
 */
describe('FcmSender against an HTTP/2 fake FCM', () => {
  let report: Record<string, unknown> & {
    results: Record<string, number>;
    connections: Record<string, number>;
    quota: { result: string[]; statuses: number[]; waitedMs: number };
  };
  beforeAll(async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        path.join(ROOT, 'node_modules/.bin/tsx'),
        [path.join(__dirname, 'fcm-sender-script.ts')],
        { cwd: ROOT, timeout: 120_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    report = JSON.parse(out.trim().split('\n').pop() as string);
  }, 150_000);

  test('fan-out over worker threads: every device gets its own result; per-platform messages over HTTP/2', () => {
    expect(report.wrong).toBe(0);
    expect(report.results).toEqual({ success: 1080 - 150 - 81, unregistered: 150, invalid_token: 81 });
    expect(report.received).toEqual({ fanOut: 1080, one: 8, two: 12 });
    expect(report.http2).toBe(true);
    expect(report.android).toBe(1050);
    expect(report.web).toBe(30);
    // The large send was spread over all three lanes, each its own connection.
    expect(report.connections.fanOut).toBe(3);
  });

  test('sessions are kept and reused: a few connections per application, not one per request; one token', () => {
    // Four sends each: at most one session per lane, however many sends.
    expect(report.connections.one).toBeLessThanOrEqual(3);
    expect(report.connections.two).toBeLessThanOrEqual(3);
    expect(report.grants).toEqual({ 'fan-out': 1, 'app-one': 1, 'app-two': 1, quota: 1 });
  });

  test('429 with Retry-After: the retry waits as long as FCM asked, then succeeds', () => {
    expect(report.quota.statuses).toEqual([429, 200]);
    expect(report.quota.result).toEqual(['success']);
    expect(report.quota.waitedMs).toBeGreaterThanOrEqual(1000);
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * FcmSender with the real firebase-admin against a fake FCM. The sender runs in a tsx child
 * process (see fcm-sender-script.ts for why).
 */
describe('FcmSender against a fake FCM', () => {
  test('batches of at most 500, per-platform messages, one named app (and token) per application', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        path.join(ROOT, 'node_modules/.bin/tsx'),
        [path.join(__dirname, 'fcm-sender-script.ts')],
        { cwd: ROOT, timeout: 60_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    const report = JSON.parse(out.trim().split('\n').pop() as string);
    // 1,080 devices need three batch calls; a batch over 500 would have failed every device.
    expect(report.results).toEqual({ success: 1080 });
    expect(report.received).toEqual({ batches: 1080, one: 2, two: 3 });
    expect(report.android).toBe(1050);
    expect(report.web).toBe(30);
    expect(report.grants).toEqual({ batches: 1, 'app-one': 1, 'app-two': 1 });
  }, 90_000);
});

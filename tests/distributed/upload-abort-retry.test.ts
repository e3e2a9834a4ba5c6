/**
 * An upload whose abort failed is retried until aborted (issue 40 item 8, decisions §49): a raw upload is cut by its
 * client while NATS is down, so the gateway's abort cannot reach storage; once NATS is back the gateway aborts it
 * again, and the pending upload is gone within seconds — not after UPLOAD_STALE_MS (6 h by default, left so here).
 */
import http from 'node:http';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { instanceBlobs, storedTexts, type InstanceBlobs } from '../harness/stores';
import { until } from '../support/poll';

let inst: PatchbayInstance;
let blobs: InstanceBlobs;
afterAll(async () => {
  await blobs?.close();
  await inst?.stop();
});

/** Storage's pending uploads, as stored (its SQLite table or MongoDB collection `uploads`). */
const pendingUploads = async () =>
  (await storedTexts(inst)).filter((t) => /(#uploads#|_storage\.uploads$)/.test(t.where)).length;

test('an abort lost to a NATS outage is retried once NATS is back: no pending upload is left', async () => {
  inst = await startPatchbay('distributed');
  blobs = await instanceBlobs(inst);
  const containerSid = await defaultContainer(inst);
  const url = new URL(`${inst.baseUrl}/storage/files?container_sid=${containerSid}&name=cut.bin`);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${inst.token}`,
      'content-type': 'application/octet-stream',
      'content-length': String(8 * 1024 * 1024),
    },
  });
  req.on('error', () => undefined);
  req.write(Buffer.alloc(1024 * 1024, 7));
  await until('bytes reaching the blob store', 20_000, async () =>
    (await blobs.incomplete()).length > 0 ? true : undefined,
  );
  expect(await pendingUploads()).toBe(1);

  // NATS goes down; then the client gives up: the gateway's abort finds no bus.
  const back = inst.restartNats(4000);
  const gatewayLostNats = () =>
    inst
      .output()
      .split('\n')
      .some((l) => l.includes('"name":"gateway"') && l.includes('disconnected from NATS'));
  await until('the gateway to lose NATS', 10_000, () => (gatewayLostNats() ? true : undefined), { everyMs: 50 });
  req.destroy();
  await until(
    'the failed abort to be logged',
    15_000,
    () => (inst.output().includes('upload abort failed; retried until storage answers') ? true : undefined),
    { everyMs: 200 },
  );
  expect(await pendingUploads()).toBe(1);
  await back;

  const waited = Date.now();
  await until(
    'the pending upload to be aborted',
    60_000,
    async () => ((await pendingUploads()) === 0 ? true : undefined),
    {
      everyMs: 500,
    },
  );
  expect(Date.now() - waited).toBeLessThan(60_000);
  expect(await blobs.traces()).toEqual([]);
  expect(inst.output().split('upload abort failed; retried until storage answers').length - 1).toBe(1);
}, 120_000);

/**
 * The media plane against its own instances: a kill -9 in the middle of a recording leaves no
 * record and no blob; a Voicemail callback still being retried survives a kill -9 and is delivered
 * after the restart; and without CALLBACK_ALLOW_PRIVATE a callback to a private address is refused.
 */
import http from 'node:http';
import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { instanceBlobs, type InstanceBlobs } from '../harness/stores';
import { tone } from '../support/media';
import { callbackReceiver } from '../support/media-plane';
import { until } from '../support/poll';

const asOperator = (inst: PatchbayInstance) => ['Authorization', `Bearer ${inst.token}`] as const;

async function voicemail(inst: PatchbayInstance, properties: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await request(inst.origin)
    .post('/core/v2/endpoints')
    .set(...asOperator(inst))
    .send({ type: 'voicemail', properties });
  expect(res.status).toBe(200);
  return res.body;
}

const deliveries = async (inst: PatchbayInstance) =>
  (
    await request(inst.origin)
      .get('/core/v2/media/callbacks')
      .set(...asOperator(inst))
  ).body.items as Array<Record<string, unknown>>;

describe('media plane: crashes and restarts', () => {
  let inst: PatchbayInstance;
  // Closed here, not in the test, so a failure anywhere in it leaves no server keeping jest alive.
  const opened: { receiver?: Awaited<ReturnType<typeof callbackReceiver>>; blobs?: InstanceBlobs } = {};
  afterAll(async () => {
    await opened.receiver?.close();
    await opened.blobs?.close();
    await inst?.stop();
  });

  test(
    'kill -9 mid-recording: no record, no blob after the restart; a ' + 'callback being retried is delivered after it',
    async () => {
      inst = await startPatchbay(mode(), {
        UPLOAD_STALE_MS: '2000',
        UPLOAD_SWEEP_INTERVAL_MS: '500',
        CALLBACK_RETRY_BASE_MS: '1000',
      });
      // A callback whose receiver fails twice: it is being retried when the process dies.
      const receiver = (opened.receiver = await callbackReceiver(2));
      const vm = await voicemail(inst, { callback_url: receiver.url });
      const done = await request(inst.origin)
        .post(`/core/v2/media/recordings?endpoint_sid=${vm.endpoint_sid}`)
        .set(...asOperator(inst))
        .set('Content-Type', 'audio/wav')
        .send(tone('wav', 1));
      expect(done.status).toBe(201);
      await until('a failed attempt', 15_000, () => (receiver.received.length >= 1 ? true : undefined));

      // A recording in flight: 1 MiB sent of a declared 8 MiB, then the process dies.
      const url = new URL(`${inst.baseUrl}/media/recordings?endpoint_sid=${vm.endpoint_sid}`);
      const req = http.request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${inst.token}`,
          'content-type': 'audio/wav',
          'content-length': String(8 * 1024 * 1024),
        },
      });
      req.on('error', () => undefined);
      req.write(tone('wav', 1));
      req.write(Buffer.alloc(1024 * 1024, 7));
      const blobs = (opened.blobs = await instanceBlobs(inst));
      await until('bytes reaching the blob store', 20_000, async () =>
        (await blobs.traces()).length > 1 ? true : undefined,
      );
      await inst.kill();
      req.destroy();
      inst = await inst.restart();
      // The half-written recording is gone; the stored one is all there is.
      await until('the sweep to remove the partial blob', 20_000, async () =>
        (await blobs.traces()).length === 1 ? true : undefined,
      );
      const files = await request(inst.origin)
        .get('/core/v2/storage/files')
        .set(...asOperator(inst));
      expect(files.body.items.map((f: { file_sid: string }) => f.file_sid)).toEqual([done.body.file_sid]);
      // The callback carries on from where it was: delivered after the restart, once.
      const [d] = await until('the callback delivered after the restart', 30_000, async () => {
        const items = await deliveries(inst);
        return items[0]?.state === 'delivered' ? items : undefined;
      });
      expect(d).toMatchObject({ file_sid: done.body.file_sid, attempts: 3 });
      expect(receiver.received).toHaveLength(3);
    },
    120_000,
  );
});

describe('media plane: callbacks to private addresses', () => {
  let inst: PatchbayInstance;
  afterAll(async () => {
    await inst?.stop();
  });

  test(
    'without CALLBACK_ALLOW_PRIVATE a callback to a loopback address is ' + 'refused, never sent, and listed as failed',
    async () => {
      // Set while private addresses were allowed (set now, it would be refused at once: outbound-guard.test.ts).
      const allowed = await startPatchbay(mode(), { CALLBACK_ALLOW_PRIVATE: 'true' });
      inst = allowed;
      const receiver = await callbackReceiver();
      try {
        const vm = await voicemail(inst, { callback_url: receiver.url });
        await allowed.kill();
        inst = await allowed.restart({ CALLBACK_ALLOW_PRIVATE: 'false' });
        const rec = await request(inst.origin)
          .post(`/core/v2/media/recordings?endpoint_sid=${vm.endpoint_sid}`)
          .set(...asOperator(inst))
          .set('Content-Type', 'audio/wav')
          .send(tone('wav', 1));
        expect(rec.status).toBe(201);
        const [d] = await until('the refusal', 15_000, async () => {
          const items = await deliveries(inst);
          return items[0]?.state === 'failed' ? items : undefined;
        });
        expect(d).toMatchObject({ file_sid: rec.body.file_sid, state: 'failed', attempts: 1 });
        expect(String(d.last_error)).toBe('refused: this address is not allowed');
        expect(receiver.received).toEqual([]);
      } finally {
        await receiver.close();
      }
    },
    120_000,
  );
});

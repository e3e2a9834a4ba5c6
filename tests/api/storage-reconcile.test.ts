import request from 'supertest';
import { mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { rewriteStored, storedTexts } from '../harness/stores';

/**
 * Container counters are recomputed from the files when the storage service starts with
 * reconciliation on: by default on the embedded store, and on MongoDB when
 * STORAGE_RECONCILE_ON_START=true (a single storage replica) — in the all-in-one process as in the
 * storage service's own. Counters that disagree with the files are what a crash between a counter
 * update and its file write leaves. One instance of its own.
 */
describe('container counters at start-up', () => {
  let inst: PatchbayInstance;
  afterAll(async () => {
    await inst?.stop();
  });

  test('counters that disagree with the files are put right by a restart', async () => {
    inst = await startPatchbay(mode(), process.env.MONGODB_URL ? { STORAGE_RECONCILE_ON_START: 'true' } : {});
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const api = () => request(inst.origin);
    const containerSid = await defaultContainer(inst);
    for (const [name, body] of [
      ['a.txt', 'abc'],
      ['b.txt', 'hello'],
    ]) {
      const res = await api()
        .post(`/core/v2/storage/files?container_sid=${containerSid}&name=${name}`)
        .set(...auth)
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from(body));
      expect(res.status).toBe(201);
    }
    const counters = async () =>
      (
        await api()
          .get(`/core/v2/storage/containers/${containerSid}`)
          .set(...auth)
      ).body as Record<string, unknown>;
    expect(await counters()).toMatchObject({ total_files: 2, total_bytes: 8 });

    await inst.kill();
    const [stored, ...more] = (await storedTexts(inst)).filter(
      (r) => r.text.includes(containerSid) && r.text.includes('"total_files"'),
    );
    expect(more).toEqual([]);
    await rewriteStored(
      inst,
      stored,
      (doc) => doc.container_sid === containerSid,
      (doc) => {
        doc.total_files = 7;
        doc.total_bytes = 1000;
      },
    );
    inst = await inst.restart();

    expect(await counters()).toMatchObject({ total_files: 2, total_bytes: 8 });
  }, 120_000);
});

import http from 'node:http';
import request from 'supertest';
import { mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { instanceBlobs, type InstanceBlobs } from '../harness/stores';
import { until } from '../support/poll';

describe('failure safety: Patchbay dies mid-upload', () => {
  let inst: PatchbayInstance;
  let blobs: InstanceBlobs;
  afterAll(async () => {
    await blobs?.close();
    await inst?.stop();
  });

  test('no File record points at a missing blob and no orphan blob outlives the restart sweep', async () => {
    inst = await startPatchbay(mode(), { UPLOAD_STALE_MS: '2000', UPLOAD_SWEEP_INTERVAL_MS: '500' });
    blobs = await instanceBlobs(inst);
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const containers = await request(inst.origin)
      .get('/core/v2/storage/containers')
      .set(...auth);
    const containerSid = await defaultContainer(inst);
    expect(containers.status).toBe(200);
    // A write answered before the crash is replayed after it: Idempotency-Keys are kept in the store.
    const keyed = () =>
      request(inst.origin)
        .post('/core/v2/storage/containers')
        .set(...auth)
        .set('Idempotency-Key', 'before-the-crash')
        .send({ name: 'keyed' });
    const created = await keyed();
    expect(created.status).toBe(200);

    // A slow upload: 1 MiB now, then nothing; the process is killed while it waits for the rest.
    const url = new URL(`${inst.baseUrl}/storage/files?container_sid=${containerSid}&name=partial.bin`);
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
    await until('bytes reaching the blob store', 20000, async () =>
      (await blobs.incomplete()).length > 0 ? true : undefined,
    );
    await inst.kill();
    req.destroy();
    expect((await blobs.traces()).length).toBeGreaterThan(0);

    inst = await inst.restart();
    const replayed = await keyed();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(created.body);
    await until('the sweep to remove every partial blob', 20000, async () =>
      (await blobs.traces()).length === 0 ? true : undefined,
    );
    const files = await request(inst.origin)
      .get('/core/v2/storage/files')
      .set(...auth);
    expect(files.body.items).toEqual([]);
    const c = await request(inst.origin)
      .get(`/core/v2/storage/containers/${containerSid}`)
      .set(...auth);
    expect(c.body).toMatchObject({ total_files: 0, total_bytes: 0 });

    // And it still works after the crash.
    const ok = await request(inst.origin)
      .post(`/core/v2/storage/files?container_sid=${containerSid}&name=after.txt`)
      .set(...auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('fine'));
    expect(ok.status).toBe(201);
  }, 120000);

  test('a client that disconnects mid-upload leaves no record and no blob', async () => {
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const containerSid = (
      await request(inst.origin)
        .get('/core/v2/storage/containers')
        .set(...auth)
    ).body.items[0].container_sid as string;
    const before = (
      await request(inst.origin)
        .get('/core/v2/storage/files')
        .set(...auth)
    ).body.items.length as number;
    const countBefore = (await blobs.traces()).length;
    const url = new URL(`${inst.baseUrl}/storage/files?container_sid=${containerSid}&name=gone.bin`);
    const req = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${inst.token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(4 * 1024 * 1024),
      },
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(512 * 1024, 1));
    await until('bytes reaching the blob store', 20000, async () =>
      (await blobs.traces()).length > countBefore ? true : undefined,
    );
    req.destroy();
    await until('the aborted upload to be removed', 10000, async () =>
      (await blobs.traces()).length === countBefore ? true : undefined,
    );
    expect(
      (
        await request(inst.origin)
          .get('/core/v2/storage/files')
          .set(...auth)
      ).body.items.length,
    ).toBe(before);
  }, 60000);
});

import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { expectedLru, sids, storageClient, until, type StorageClient } from '../support/threshold-kit';
import type { ApiJson } from '../support/api-json';

/**
 * The threshold-worker through the public API: delete_lru sweeps and lifecycle expiry, on a Patchbay
 * of its own that sweeps every second. Containers are filled while `no_action` (nothing is swept),
 * the access order is arranged, and then `delete_lru` is switched on: the sweep that follows must
 * delete exactly what the LRU rule names.
 */
describe('threshold-worker: delete_lru and lifecycle expiry', () => {
  let inst: PatchbayInstance;
  let s: StorageClient;
  /** The container the first test swept, and a reject container: both checked again after later ticks. */
  let swept: { sid: string; files: number };
  let rejecting: { sid: string; files: number };

  beforeAll(async () => {
    inst = await startPatchbay(mode(), { THRESHOLD_SWEEP_INTERVAL: '1' });
    s = await storageClient(inst);
  }, 120_000);
  afterAll(async () => {
    await inst?.stop();
  });

  /** Uploads `n` files (sizes from `size`), one after another, so their access times follow the order. */
  async function fill(
    containerSid: string,
    n: number,
    size: (i: number) => number = () => 10,
    fields: (i: number) => Record<string, string | number | boolean> = () => ({}),
  ) {
    const out: Array<ApiJson> = [];
    for (let i = 0; i < n; i++)
      out.push(
        await s.upload(
          { container_sid: containerSid, name: `f${i}.bin`, ...fields(i) },
          Buffer.alloc(size(i), 65 + (i % 26)),
        ),
      );
    return out;
  }

  const settledAt = (containerSid: string, files: number) =>
    until(`container ${containerSid} at ${files} files`, async () => {
      const c = await s.getContainer(containerSid);
      return c.total_files === files ? c : undefined;
    });

  test(
    'a container over its threshold is brought to its target in LRU order; ' +
      'downloads by SID protect a file, reads through publish_uri do not',
    async () => {
      const c = await s.createContainer({
        threshold_action: 'no_action',
        threshold_files: 8,
        threshold_files_target: 4,
      });
      const files = await fill(c.container_sid, 10);
      // Downloaded by SID: now the most recently used.
      for (const f of files.slice(0, 2)) expect((await s.downloadBySid(f.file_sid)).status).toBe(200);
      // Read only through the public file server: their date_last_accessed stays as it was.
      for (const f of files.slice(2, 4)) expect((await request(f.publish_uri).get('')).status).toBe(200);
      const before = await s.files(c.container_sid);
      for (const f of before.filter((x) => [files[2].file_sid, files[3].file_sid].includes(x.file_sid))) {
        expect(f.date_last_accessed).toBe(files.find((x) => x.file_sid === f.file_sid)!.date_last_accessed);
      }
      const gone = expectedLru({ threshold_files_target: 4, threshold_bytes_target: null }, before);
      expect(gone).toEqual(expect.arrayContaining([files[2].file_sid, files[3].file_sid]));
      expect(gone).not.toContain(files[0].file_sid);
      expect(gone).not.toContain(files[1].file_sid);

      await s.patchContainer(c.container_sid, { threshold_action: 'delete_lru' });
      const after = await settledAt(c.container_sid, 4);
      expect(after).toMatchObject({ total_files: 4, threshold_total_files: 4, threshold_available_files_percent: 50 });
      expect(sids(await s.files(c.container_sid))).toEqual(sids(before.filter((f) => !gone.includes(f.file_sid))));
      // Deleted through storage: gone from the API, the data download and the public file server (its cache too).
      for (const sid of gone) expect((await s.getFile(sid)).status).toBe(404);
      expect((await s.downloadBySid(files[2].file_sid)).status).toBe(404);
      expect((await request(files[2].publish_uri).get('')).status).toBe(404);

      // Back between target and threshold: no sweep until the threshold is reached again.
      await fill(c.container_sid, 3);
      swept = { sid: c.container_sid, files: 7 };
    },
    60_000,
  );

  test('a bytes threshold: LRU files go until both counts are at or below target, not one more', async () => {
    const c = await s.createContainer({
      threshold_action: 'no_action',
      threshold_bytes: 1000,
      threshold_bytes_target: 600,
      threshold_files: 50,
      threshold_files_target: 40,
    });
    const sizes = [300, 50, 50, 200, 100, 100, 100, 100];
    await fill(c.container_sid, sizes.length, (i) => sizes[i]);
    const before = await s.files(c.container_sid);
    const gone = expectedLru({ threshold_files_target: 40, threshold_bytes_target: 600 }, before);
    expect(gone).toHaveLength(3);
    await s.patchContainer(c.container_sid, { threshold_action: 'delete_lru' });
    const after = await settledAt(c.container_sid, 5);
    expect(after).toMatchObject({ threshold_total_bytes: 600, total_bytes: 600 });
    expect(sids(await s.files(c.container_sid))).toEqual(sids(before.filter((f) => !gone.includes(f.file_sid))));
  }, 60_000);

  test('threshold_include false files are neither counted nor deleted, even when least recently used', async () => {
    const c = await s.createContainer({ threshold_action: 'no_action', threshold_files: 3, threshold_files_target: 1 });
    const excluded = await fill(
      c.container_sid,
      3,
      () => 10,
      () => ({ threshold_include: false }),
    );
    const counted = await fill(c.container_sid, 4);
    expect(await s.getContainer(c.container_sid)).toMatchObject({ total_files: 7, threshold_total_files: 4 });
    await s.patchContainer(c.container_sid, { threshold_action: 'delete_lru' });
    await settledAt(c.container_sid, 4);
    expect(sids(await s.files(c.container_sid))).toEqual(sids([...excluded, counted[3]]));
    expect(await s.getContainer(c.container_sid)).toMatchObject({ threshold_total_files: 1, total_files: 4 });
  }, 60_000);

  test('reject containers are not swept; their threshold status fields stay true as files come and go', async () => {
    const c = await s.createContainer({ threshold_action: 'reject', threshold_files: 3, threshold_bytes: 1000 });
    const files = await fill(c.container_sid, 3, () => 100);
    expect(await s.getContainer(c.container_sid)).toMatchObject({
      threshold_total_files: 3,
      threshold_total_bytes: 300,
      threshold_available_files_percent: 0,
      threshold_available_bytes_percent: 70,
    });
    const refused = await s.tryUpload({ container_sid: c.container_sid }, 'x');
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('threshold_files');
    // Not counted, so not refused; the threshold counts do not move.
    const free = await s.upload({ container_sid: c.container_sid, threshold_include: false }, Buffer.alloc(50));
    expect(await s.getContainer(c.container_sid)).toMatchObject({
      total_files: 4,
      total_bytes: 350,
      threshold_total_files: 3,
      threshold_total_bytes: 300,
    });
    await s.deleteFile(files[0].file_sid);
    expect(await s.getContainer(c.container_sid)).toMatchObject({
      total_files: 3,
      threshold_total_files: 2,
      threshold_total_bytes: 200,
      threshold_available_files_percent: 33.33,
      threshold_available_bytes_percent: 80,
    });
    await s.patchFile(free.file_sid, { threshold_include: true });
    expect(await s.getContainer(c.container_sid)).toMatchObject({
      threshold_total_files: 3,
      threshold_total_bytes: 250,
      threshold_available_files_percent: 0,
    });
    await s.patchFile(free.file_sid, { threshold_include: false });
    expect(await s.getContainer(c.container_sid)).toMatchObject({
      threshold_total_files: 2,
      threshold_total_bytes: 200,
      threshold_available_files_percent: 33.33,
    });
    rejecting = { sid: c.container_sid, files: 3 };
  }, 60_000);

  test('lifecycle_action delete removes a file lifecycle_ttl seconds after upload, and only then', async () => {
    const c = await s.createContainer({});
    const keep = await s.upload({ container_sid: c.container_sid, name: 'keep.txt' }, 'keep');
    const later = await s.upload(
      { container_sid: c.container_sid, name: 'later.txt', lifecycle_action: 'delete', lifecycle_ttl: 3600 },
      'later',
    );
    const doomed = await s.upload(
      { container_sid: c.container_sid, name: 'doomed.txt', lifecycle_action: 'delete', lifecycle_ttl: 2 },
      'doomed',
    );
    const goneAt = await until('the expired file to be deleted', async () =>
      (await s.getFile(doomed.file_sid)).status === 404 ? Date.now() : undefined,
    );
    expect(goneAt).toBeGreaterThanOrEqual(new Date(doomed.date_created).getTime() + 2000);
    expect(sids(await s.files(c.container_sid))).toEqual(sids([keep, later]));
    expect(await s.getContainer(c.container_sid)).toMatchObject({ total_files: 2 });

    // Several ticks have run meanwhile: the swept container stayed between target and threshold
    // (no new sweep below its threshold), and the reject container was never swept.
    expect((await s.getContainer(swept.sid)).total_files).toBe(swept.files);
    expect((await s.getContainer(rejecting.sid)).total_files).toBe(rejecting.files);
  }, 60_000);
});

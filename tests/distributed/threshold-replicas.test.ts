import request from 'supertest';
import { reservePorts } from '../harness/free-port';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { expectedLru, sids, storageClient, until } from '../support/threshold-kit';
import type { ApiJson } from '../support/api-json';

/** A counter's total over the lines of a Prometheus text page that name it and contain `labels`. */
function metric(text: string, name: string, labels = ''): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && l.includes(labels))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

describe('two threshold-worker replicas over NATS', () => {
  let inst: PatchbayInstance;
  afterAll(async () => {
    await inst?.stop();
  });

  test(
    'sweeping several containers at once, they delete exactly the set one ' + 'sweeper would, each file once',
    async () => {
      const opsBase = await reservePorts(16); // one per process of the set
      inst = await startPatchbay('distributed', {
        THRESHOLD_WORKER_REPLICAS: '2',
        THRESHOLD_SWEEP_INTERVAL: '1',
        OPS_PORT_BASE: String(opsBase),
      });
      const s = await storageClient(inst, 10);
      const containers: Array<{ sid: string; target: number; before: Array<ApiJson> }> = [];
      for (let k = 0; k < 6; k++) {
        const c = await s.createContainer({
          threshold_action: 'no_action',
          threshold_files: 20,
          threshold_files_target: 5 + k,
        });
        const files: Array<ApiJson> = [];
        for (let i = 0; i < 22; i++)
          files.push(await s.upload({ container_sid: c.container_sid, name: `f${i}.bin` }, Buffer.alloc(10 + i, 66)));
        // A few downloads by SID reorder the LRU list.
        for (const f of [files[0], files[5], files[1]]) expect((await s.downloadBySid(f.file_sid)).status).toBe(200);
        containers.push({ sid: c.container_sid, target: 5 + k, before: await s.files(c.container_sid) });
      }
      // Every container over its threshold at once: both replicas' ticks enqueue the same keyed jobs.
      await Promise.all(containers.map((c) => s.patchContainer(c.sid, { threshold_action: 'delete_lru' })));

      let expectedTotal = 0;
      for (const c of containers) {
        const gone = expectedLru({ threshold_files_target: c.target, threshold_bytes_target: null }, c.before);
        expectedTotal += gone.length;
        await until(`container ${c.sid} at its target`, async () =>
          (await s.getContainer(c.sid)).total_files === c.target ? true : undefined,
        );
        expect(sids(await s.files(c.sid))).toEqual(sids(c.before.filter((f) => !gone.includes(f.file_sid))));
      }

      // Launcher order: identity, records, transcoder, storage, endpoint, push, file-server, threshold-worker-1,
      // threshold-worker-2, gateway.
      const scrape = () =>
        Promise.all(
          [7, 8].map((i) =>
            request(`http://127.0.0.1:${opsBase + i}`)
              .get('/metrics')
              .then((r) => r.text),
          ),
        );
      const deletedIn = (pages: string[]) =>
        pages.map((p) => metric(p, 'threshold_worker_deleted_files_total', 'reason="lru"'));
      // The last reply may still be on its way to a worker when the container is seen at its target.
      const pages = await until('every deletion to be counted', async () => {
        const now = await scrape();
        return deletedIn(now).reduce((a, b) => a + b, 0) >= expectedTotal ? now : undefined;
      });
      const deleted = deletedIn(pages);
      expect(deleted[0] + deleted[1]).toBe(expectedTotal);
      // Both replicas ticked and both took sweep jobs.
      for (const p of pages) expect(metric(p, 'threshold_worker_ticks_total', 'result="ok"')).toBeGreaterThan(0);
      for (const p of pages) expect(metric(p, 'threshold_worker_sweeps_total', 'kind="lru"')).toBeGreaterThan(0);
      expect(deleted.every((n) => n > 0)).toBe(true);
    },
    180_000,
  );
});

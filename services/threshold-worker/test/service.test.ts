import { Subjects, unwrapReply, type SweepCandidatesReply, type SweepDeleteReply } from '@patchbay/contracts';
import { createLogger, type JobContext } from '@patchbay/platform';
import { Registry } from 'prom-client';
import { runLruSweep, type SweepDeps } from '../src/lru-sweep';
import { workerMetrics } from '../src/metrics';
import { StorageClient } from '@patchbay/contracts';
import { captureLogger } from '../../../packages/platform/src/testing/capture-logger';
import {
  containerDoc,
  expectedLru,
  fileDoc,
  metricTotal,
  seed,
  startSweepKit,
  until,
  type SweepKit,
} from './sweep-kit';
import type { ContainerDoc, FileDoc } from '../../storage/src/domain/documents';

const T0 = Date.UTC(2024, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000);

/** `n` files accessed one second apart, oldest first, of `bytes` each (or bytes(i)). */
function filesOf(
  c: ContainerDoc,
  n: number,
  bytes: (i: number) => number = () => 100,
  fields: (i: number) => Partial<FileDoc> = () => ({}),
): FileDoc[] {
  return Array.from({ length: n }, (_, i) => fileDoc(c, at(i), { file_bytes: bytes(i), ...fields(i) }));
}

async function remaining(kit: SweepKit, c: ContainerDoc): Promise<string[]> {
  return (await kit.repo.files.find({ container_sid: c.container_sid }, { projection: { file_sid: 1 } }))
    .map((f) => f.file_sid)
    .sort();
}

const without = (files: FileDoc[], gone: string[]) =>
  files
    .map((f) => f.file_sid)
    .filter((s) => !gone.includes(s))
    .sort();

async function settled(kit: SweepKit, c: ContainerDoc): Promise<ContainerDoc> {
  return until('the sweep to finish', async () => {
    const now = await kit.repo.containers.findOne({ container_sid: c.container_sid });
    return now &&
      !now.sweep_pending &&
      !now.sweep_owner &&
      now.threshold_total_files <= (c.threshold_files_target ?? Infinity) &&
      now.threshold_total_bytes <= (c.threshold_bytes_target ?? Infinity)
      ? now
      : undefined;
  });
}

describe('threshold-worker with storage on the in-process bus', () => {
  let kit: SweepKit;
  beforeEach(async () => {
    kit = await startSweepKit();
  });
  afterEach(async () => {
    await kit.stop();
  });

  test('brings a container over its threshold to its targets in LRU order, file_sid breaking ties', async () => {
    const c = containerDoc({ threshold_action: 'delete_lru', threshold_files: 10, threshold_files_target: 6 });
    // Pairs of files share an access time: the tie is broken by file_sid.
    const files = Array.from({ length: 12 }, (_, i) => fileDoc(c, at(Math.floor(i / 2))));
    await seed(kit, c, files, true);
    const gone = expectedLru(c, files);
    expect(gone).toHaveLength(6);
    const worker = await kit.startWorker();
    const after = await settled(kit, c);
    expect(await remaining(kit, c)).toEqual(without(files, gone));
    expect(after).toMatchObject({
      threshold_total_files: 6,
      total_files: 6,
      threshold_total_bytes: 600,
      total_bytes: 600,
    });
    for (const sid of gone)
      await expect(kit.blobs.stat(files.find((f) => f.file_sid === sid)!.blob_key)).rejects.toThrow();
    // The job ends (and is counted) just after storage recorded the last deletion.
    await until('the sweep job to end', async () =>
      (await metricTotal(worker.metrics, 'threshold_worker_sweeps_total', { kind: 'lru', result: 'done' })) === 1
        ? true
        : undefined,
    );
    expect(
      await metricTotal(worker.metrics, 'threshold_worker_deleted_files_total', {
        container_sid: c.container_sid,
        reason: 'lru',
      }),
    ).toBe(6);
    expect(
      await metricTotal(worker.metrics, 'threshold_worker_deleted_bytes_total', {
        container_sid: c.container_sid,
        reason: 'lru',
      }),
    ).toBe(600);
  });

  test('a bytes target: deletes until both counts are at or below target and not one file more', async () => {
    const c = containerDoc({
      threshold_action: 'delete_lru',
      threshold_files: 100,
      threshold_files_target: 50,
      threshold_bytes: 1000,
      threshold_bytes_target: 600,
    });
    const files = filesOf(c, 8, (i) => [300, 50, 50, 200, 100, 100, 100, 100][i]);
    await seed(kit, c, files);
    await kit.startWorker();
    const after = await settled(kit, c);
    // 1000 bytes: 300 (700), 50 (650), 50 (600) → at target, stop.
    expect(await remaining(kit, c)).toEqual(
      without(
        files,
        files.slice(0, 3).map((f) => f.file_sid),
      ),
    );
    expect(after.threshold_total_bytes).toBe(600);
  });

  test('threshold_include false files are never deleted nor counted, even when least recently used', async () => {
    const c = containerDoc({ threshold_action: 'delete_lru', threshold_files: 4, threshold_files_target: 2 });
    const files = filesOf(
      c,
      8,
      () => 10,
      (i) => ({ threshold_include: i % 2 === 1 }),
    );
    await seed(kit, c, files);
    await kit.startWorker();
    await settled(kit, c);
    const excluded = files.filter((f) => !f.threshold_include).map((f) => f.file_sid);
    expect(await remaining(kit, c)).toEqual(without(files, [files[1].file_sid, files[3].file_sid]));
    expect(await remaining(kit, c)).toEqual(expect.arrayContaining(excluded));
  });

  test(
    'a container between target and threshold is left alone; reject and ' + 'no_action containers are never swept',
    async () => {
      const between = containerDoc({ threshold_action: 'delete_lru', threshold_files: 10, threshold_files_target: 5 });
      const reject = containerDoc({ threshold_action: 'reject', threshold_files: 3 });
      const none = containerDoc({ threshold_action: 'no_action', threshold_files: 3, threshold_files_target: 1 });
      const trigger = containerDoc({ threshold_action: 'delete_lru', threshold_files: 2, threshold_files_target: 1 });
      await seed(kit, between, filesOf(between, 8));
      await seed(kit, reject, filesOf(reject, 5));
      await seed(kit, none, filesOf(none, 5));
      await seed(kit, trigger, filesOf(trigger, 3));
      const worker = await kit.startWorker({ intervalMs: 100 });
      await settled(kit, trigger);
      // Several ticks later still nothing else happened.
      await until('three more ticks', async () =>
        (await metricTotal(worker.metrics, 'threshold_worker_ticks_total', { result: 'ok' })) >= 4 ? true : undefined,
      );
      for (const [c, n] of [
        [between, 8],
        [reject, 5],
        [none, 5],
      ] as const)
        expect(await kit.repo.files.countDocuments({ container_sid: c.container_sid })).toBe(n);
    },
  );

  test('an unfinished sweep (pending) is continued below the threshold, down to the target', async () => {
    const c = containerDoc({
      threshold_action: 'delete_lru',
      threshold_files: 10,
      threshold_files_target: 5,
      sweep_pending: true,
    });
    const files = filesOf(c, 8);
    await seed(kit, c, files);
    await kit.startWorker();
    await settled(kit, c);
    expect(await remaining(kit, c)).toEqual(
      without(
        files,
        files.slice(0, 3).map((f) => f.file_sid),
      ),
    );
  });

  test(
    'a sweep that crashes half-way is finished by the next one once its ' +
      'lease expires: nothing twice, nothing below target',
    async () => {
      const c = containerDoc({ threshold_action: 'delete_lru', threshold_files: 20, threshold_files_target: 10 });
      const files = filesOf(c, 24);
      await seed(kit, c, files);
      const logger = createLogger({ name: 'crash-test', level: 'silent' });
      const real = new StorageClient(kit.bus, { timeoutMs: 5000 });
      // A replica that dies after 5 deletions: its requests stop, its lease is never given back.
      let deletions = 0;
      const dying = Object.create(real) as StorageClient;
      dying.sweepDelete = async (req) => {
        if (deletions++ >= 5) throw new Error('crashed');
        return real.sweepDelete(req);
      };
      dying.sweepRelease = async () => {
        throw new Error('crashed');
      };
      const registry = new Registry();
      const deps: SweepDeps = {
        storage: dying,
        log: logger,
        metrics: workerMetrics(registry, kit.bus),
        batch: 4,
        leaseMs: 1000,
        stopping: () => false,
      };
      const ctx: JobContext = {
        subject: Subjects.thresholdWorker.sweepJob,
        deliveryCount: 1,
        working: () => undefined,
        signal: new AbortController().signal,
      };
      await expect(runLruSweep(deps, { container_sid: c.container_sid, window: 1 }, ctx)).rejects.toThrow('crashed');
      const mid = await kit.repo.containers.findOne({ container_sid: c.container_sid });
      expect(mid).toMatchObject({ threshold_total_files: 19, sweep_pending: true });

      // While the dead replica's lease lasts, another sweep finds the container busy.
      const next: SweepDeps = { ...deps, storage: real };
      expect(await runLruSweep(next, { container_sid: c.container_sid, window: 2 }, ctx)).toBe('busy');
      await new Promise((r) => setTimeout(r, 1100)); // the dead replica's lease (1 s) runs out
      expect(await runLruSweep(next, { container_sid: c.container_sid, window: 3 }, { ...ctx, deliveryCount: 2 })).toBe(
        'done',
      );
      expect(await remaining(kit, c)).toEqual(without(files, expectedLru(c, files)));
      expect(await metricTotal(registry, 'threshold_worker_deleted_files_total')).toBe(14);
    },
  );

  test('storage refuses a candidate read since it was listed, and any LRU delete by a non-holder', async () => {
    const c = containerDoc({ threshold_action: 'delete_lru', threshold_files: 4, threshold_files_target: 2 });
    const files = filesOf(c, 5);
    await seed(kit, c, files);
    const ask = async <T>(subject: string, payload: unknown) => unwrapReply<T>(await kit.bus.request(subject, payload));
    const listed = await ask<SweepCandidatesReply>(Subjects.storage.sweepCandidates, {
      container_sid: c.container_sid,
      owner: 'a',
      lease_ms: 60_000,
      limit: 10,
    });
    expect(listed.claimed).toBe(true);
    expect(listed.files.map((f) => f.file_sid)).toEqual(files.map((f) => f.file_sid));
    const other = await ask<SweepCandidatesReply>(Subjects.storage.sweepCandidates, {
      container_sid: c.container_sid,
      owner: 'b',
      lease_ms: 60_000,
      limit: 10,
    });
    expect(other).toMatchObject({ claimed: false, files: [] });
    const head = listed.files[0];
    const byOther = await ask<SweepDeleteReply>(Subjects.storage.sweepDelete, {
      file_sid: head.file_sid,
      reason: 'lru',
      container_sid: c.container_sid,
      owner: 'b',
      date_last_accessed: head.date_last_accessed,
    });
    expect(byOther).toMatchObject({ deleted: false, holds_lease: false });
    // Downloaded by SID meanwhile: no longer the least recently used.
    await kit.repo.files.updateOne({ file_sid: head.file_sid }, { $set: { date_last_accessed: new Date() } });
    const stale = await ask<SweepDeleteReply>(Subjects.storage.sweepDelete, {
      file_sid: head.file_sid,
      reason: 'lru',
      container_sid: c.container_sid,
      owner: 'a',
      date_last_accessed: head.date_last_accessed,
    });
    expect(stale).toMatchObject({ deleted: false, holds_lease: true });
    expect(await kit.repo.files.countDocuments({ file_sid: head.file_sid })).toBe(1);
  });

  test('two replicas sweeping many containers at once delete exactly what one would, each file once', async () => {
    const containers = Array.from({ length: 6 }, (_, i) =>
      containerDoc({
        threshold_action: 'delete_lru',
        threshold_files: 30,
        threshold_files_target: 10 + i,
        threshold_bytes: 100_000,
        threshold_bytes_target: 2_500,
      }),
    );
    const all = new Map<string, FileDoc[]>();
    for (const c of containers) {
      const files = Array.from({ length: 40 }, (_, i) =>
        fileDoc(c, at(Math.floor(i / 3)), { file_bytes: 50 + ((i * 37) % 200) }),
      );
      all.set(c.container_sid, files);
      await seed(kit, c, files);
    }
    // Ticking fast, so jobs of later windows meet sweeps still running.
    const replicas = [
      await kit.startWorker({ intervalMs: 50, batch: 7, concurrency: 3 }),
      await kit.startWorker({ intervalMs: 50, batch: 7, concurrency: 3 }),
    ];
    let expectedTotal = 0;
    for (const c of containers) {
      await settled(kit, c);
      const gone = expectedLru(c, all.get(c.container_sid)!);
      expectedTotal += gone.length;
      expect(await remaining(kit, c)).toEqual(without(all.get(c.container_sid)!, gone));
    }
    const counted = () =>
      Promise.all(
        replicas.map((r) => metricTotal(r.metrics, 'threshold_worker_deleted_files_total', { reason: 'lru' })),
      );
    expect(
      await until('the deletions to be counted', async () => {
        const [a, b] = await counted();
        return a + b >= expectedTotal ? a + b : undefined;
      }),
    ).toBe(expectedTotal);
  });

  test('lifecycle expiry deletes files whose lifecycle_ttl passed, once, whatever the number of replicas', async () => {
    const c = containerDoc();
    const now = Date.now();
    const files = filesOf(
      c,
      10,
      () => 10,
      (i) =>
        i < 6
          ? { lifecycle_action: 'delete', lifecycle_ttl: 60, expires_at: new Date(now - 1000 * (i + 1)) }
          : {
              lifecycle_action: i < 8 ? 'delete' : 'no_action',
              lifecycle_ttl: i < 8 ? 3600 : -1,
              ...(i < 8 ? { expires_at: new Date(now + 3600_000) } : {}),
            },
    );
    await seed(kit, c, files);
    const replicas = [await kit.startWorker({ intervalMs: 50 }), await kit.startWorker({ intervalMs: 50 })];
    await until('expired files to go', async () =>
      (await kit.repo.files.countDocuments({ container_sid: c.container_sid })) === 4 ? true : undefined,
    );
    expect(await remaining(kit, c)).toEqual(
      files
        .slice(6)
        .map((f) => f.file_sid)
        .sort(),
    );
    expect(await kit.repo.containers.findOne({ container_sid: c.container_sid })).toMatchObject({
      total_files: 4,
      total_bytes: 40,
    });
    // The last reply may still be on its way to a worker when the count is seen.
    const counted = () =>
      Promise.all(
        replicas.map((r) =>
          metricTotal(r.metrics, 'threshold_worker_deleted_files_total', {
            container_sid: c.container_sid,
            reason: 'lifecycle',
          }),
        ),
      );
    expect(
      await until('the deletions to be counted', async () => {
        const [a, b] = await counted();
        return a + b >= 6 ? a + b : undefined;
      }),
    ).toBe(6);
  });
});

test('a malformed job is logged and acknowledged, never run; the worker goes on with the next', async () => {
  const { logger, lines } = captureLogger('error');
  const kit = await startSweepKit({ logger });
  try {
    await kit.startWorker();
    await kit.bus.enqueue(Subjects.thresholdWorker.sweepJob, { container_sid: 42, window: 1 });
    await kit.bus.enqueue(Subjects.thresholdWorker.expireJob, { window: 'soon' });
    await until('both refusals to be logged', async () =>
      lines.filter((l) => l.msg === 'malformed internal message refused').length === 2 ? true : undefined,
    );
    const refused = lines.filter((l) => l.msg === 'malformed internal message refused');
    expect(refused.map((l) => l.subject)).toEqual([
      Subjects.thresholdWorker.sweepJob,
      Subjects.thresholdWorker.expireJob,
    ]);
    expect(refused[0].fields).toEqual([expect.objectContaining({ field: 'container_sid' })]);
    expect(lines.filter((l) => l.msg !== 'malformed internal message refused')).toEqual([]);
  } finally {
    await kit.stop();
  }
});

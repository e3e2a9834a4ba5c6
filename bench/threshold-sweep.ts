/**
 * delete_lru sweep time against the number of files in the container: storage and a threshold-worker
 * in this process on the in-process bus, NeDB datafiles on disk and a blob directory (the all-in-one
 * configuration). The container's files are written straight into storage's collections (with a
 * blob per file the sweep will delete), then the worker is handed a sweep job and the time until the
 * container sits at its target is taken — once for a fixed 1,000 deletions and once for 10% of the
 * files (after the first).
 *
 * Also: a tick (the due-containers request), the expired-files request (a scan on NeDB: see
 * storage's operations/lru-sweep.ts), the candidate request alone (a page of 200 LRU files,
 * lease taken and given back), and the candidate query on NeDB under three index sets — the
 * compound index alone (what MongoDB needs; NeDB cannot use it for a sort, so it matches and sorts
 * every file), plus date_last_accessed (what storage creates: an ordered index scan), plus a
 * (container_sid, threshold_include) index (rejected: see the delete column) — with the cost of one
 * delete under the last two.
 *
 *   pnpm exec tsx bench/threshold-sweep.ts [sizes=10000,30000,100000]
 */
import fs from 'node:fs';
import path from 'node:path';
import { Subjects, unwrapReply } from '@patchbay/contracts';
import { SqliteDocStore } from '@patchbay/platform';
import { openStorageRepo } from '../services/storage/src/repo';
import type { ContainerDoc, FileDoc } from '../services/storage/src/domain/documents';
import { containerDoc, fileDoc, seed, startSweepKit, type SweepKit } from '../services/threshold-worker/test/sweep-kit';
import { table } from './lib/proc';

const SIZES = (process.argv[2] ?? '10000,30000,100000').split(',').map(Number);
const T0 = Date.UTC(2024, 0, 1);
const FIXED = 1000;

/** `n` files accessed over time (two per second: ties broken by file_sid), inserted in shuffled order. */
function makeFiles(c: ContainerDoc, n: number): FileDoc[] {
  const files = Array.from({ length: n }, (_, i) =>
    fileDoc(c, new Date(T0 + Math.floor(i / 2) * 1000), { file_bytes: 1000 + (i % 7) * 100 }),
  );
  for (let i = files.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [files[i], files[j]] = [files[j], files[i]];
  }
  return files;
}

const ms = (from: number) => performance.now() - from;
const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** Median of `runs` timings of `fn`. */
async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    t.push(ms(s));
  }
  return t.sort((a, b) => a - b)[Math.floor(t.length / 2)];
}

/**
 * Makes the container delete_lru with its threshold at its current count and its target `deleting`
 * below, and hands the worker a sweep job for it (as a tick would, without waiting for one); the
 * time is until the container sits at its target.
 */
async function sweep(
  kit: SweepKit,
  c: ContainerDoc,
  deleting: number,
  run: number,
): Promise<{ ms: number; deleted: number }> {
  const now = (await kit.repo.containers.findOne({ container_sid: c.container_sid }))!;
  const target = now.threshold_total_files - deleting;
  await kit.repo.containers.updateOne(
    { container_sid: c.container_sid },
    {
      $set: {
        threshold_action: 'delete_lru',
        threshold_files: now.threshold_total_files,
        threshold_files_target: target,
      },
    },
  );
  const started = performance.now();
  await kit.bus.enqueue(
    Subjects.thresholdWorker.sweepJob,
    { container_sid: c.container_sid, window: run },
    { msgId: `bench:${c.container_sid}:${run}` },
  );
  for (;;) {
    const cur = await kit.repo.containers.findOne(
      { container_sid: c.container_sid },
      { projection: { threshold_total_files: 1, sweep_pending: 1 } },
    );
    if (cur && cur.threshold_total_files <= target && !cur.sweep_pending) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { ms: ms(started), deleted: now.threshold_total_files - target };
}

/**
 * The candidate query on an in-memory store: with the compound index only (NeDB sorts every match),
 * then with the date_last_accessed index storage adds (ordered index scan), and — for the record —
 * with a (container_sid, threshold_include) index too, and what that one does to a delete.
 */
async function candidateQuery(
  n: number,
): Promise<{ compoundOnly: number; shipped: number; withPair: number; deletePair: number; deleteShipped: number }> {
  const docs = new SqliteDocStore();
  const repo = await openStorageRepo(docs);
  await repo.files.createIndex({ container_sid: 1, threshold_include: 1, date_last_accessed: 1, file_sid: 1 });
  const c = containerDoc();
  const files = makeFiles(c, n);
  for (let i = 0; i < files.length; i += 5000) await repo.files.insertMany(files.slice(i, i + 5000));
  const q = () =>
    repo.files.find(
      { container_sid: c.container_sid, threshold_include: true },
      {
        sort: { date_last_accessed: 1, file_sid: 1 },
        limit: 200,
        projection: { file_sid: 1, file_bytes: 1, date_last_accessed: 1 },
      },
    );
  let next = 0;
  const del = () => repo.files.deleteOne({ file_sid: files[next++].file_sid });
  const compoundOnly = await timeIt(5, q);
  await repo.files.createIndex({ date_last_accessed: 1 });
  const shipped = await timeIt(5, q);
  const deleteShipped = await timeIt(51, del);
  await repo.files.createIndex({ container_sid: 1, threshold_include: 1 });
  const withPair = await timeIt(5, q);
  const deletePair = await timeIt(51, del);
  await docs.close();
  return { compoundOnly, shipped, withPair, deletePair, deleteShipped };
}

async function main(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  for (const n of SIZES) {
    const kit = await startSweepKit({ persistent: true });
    // no_action until a sweep is wanted: the worker's own ticks find nothing to do.
    const c = containerDoc({ threshold_action: 'no_action', threshold_files: n, threshold_files_target: n - 1 });
    const files = makeFiles(c, n);
    const seedStart = performance.now();
    await seed(kit, c, files);
    // Blobs for the files the two sweeps delete (the least recently used 1,000 + 10%).
    const lru = [...files].sort(
      (a, b) => a.date_last_accessed.getTime() - b.date_last_accessed.getTime() || (a.file_sid < b.file_sid ? -1 : 1),
    );
    for (const f of lru.slice(0, FIXED + Math.round(n / 10))) {
      const file = path.join(kit.blobDir, f.blob_key);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.alloc(64, 1));
    }
    const seeded = ms(seedStart);
    await kit.repo.containers.updateOne(
      { container_sid: c.container_sid },
      { $set: { threshold_action: 'delete_lru' } },
    );
    const page = await timeIt(5, async () => {
      unwrapReply(
        await kit.bus.request(Subjects.storage.sweepCandidates, {
          container_sid: c.container_sid,
          owner: 'bench',
          lease_ms: 60_000,
          limit: 200,
        }),
      );
      unwrapReply(
        await kit.bus.request(Subjects.storage.sweepRelease, { container_sid: c.container_sid, owner: 'bench' }),
      );
    });
    const tick = await timeIt(5, async () =>
      unwrapReply(await kit.bus.request(Subjects.storage.sweepContainers, { after: null, limit: 200 })),
    );
    await kit.repo.containers.updateOne(
      { container_sid: c.container_sid },
      { $set: { threshold_action: 'no_action', sweep_pending: false } },
    );
    const expired = await timeIt(5, async () =>
      unwrapReply(await kit.bus.request(Subjects.storage.sweepExpired, { limit: 200 })),
    );
    // One replica; it ticks once at start (nothing due) and not again during the run.
    const worker = await kit.startWorker({ intervalMs: 3_600_000 });
    const fixed = await sweep(kit, c, FIXED, 1);
    const tenth = await sweep(kit, c, Math.round(n / 10), 2);
    await worker.stop();
    const query = await candidateQuery(n);
    await kit.stop();
    rows.push({
      files: n,
      'seed s': (seeded / 1000).toFixed(1),
      'tick ms': fmt(tick),
      'expired req ms': fmt(expired),
      'candidates req ms': fmt(page),
      'query ms: compound only / shipped / +pair': [query.compoundOnly, query.shipped, query.withPair]
        .map((v) => fmt(v))
        .join(' / '),
      'delete ms: shipped / +pair': `${query.deleteShipped.toFixed(2)} / ${query.deletePair.toFixed(2)}`,
      'sweep 1,000 s': (fixed.ms / 1000).toFixed(2),
      'ms/file (1,000)': (fixed.ms / fixed.deleted).toFixed(2),
      'sweep 10% (files)': `${(tenth.ms / 1000).toFixed(2)} s (${tenth.deleted})`,
      'ms/file (10%)': (tenth.ms / tenth.deleted).toFixed(2),
    });
    process.stderr.write(`${n} files done\n`);
  }
  process.stdout.write(
    `\ndelete_lru sweep, all-in-one configuration (in-process bus, NeDB on ` +
      `disk, blob directory); node ${process.version}\n\n${table(rows)}\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

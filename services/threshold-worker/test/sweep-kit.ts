import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Registry } from 'prom-client';
import { NO_KEYS } from '@patchbay/contracts';
import { DirBlobStore, MemoryBus, SqliteDocStore, createLogger, type Logger, type Stoppable } from '@patchbay/platform';
import { startStorageService } from '../../storage/src/service';
import { openStorageRepo, type StorageRepo } from '../../storage/src/repo';
import type { ContainerDoc, FileDoc } from '../../storage/src/domain/documents';
import { CONTAINER_DEFAULTS } from '../../storage/src/domain/container-rules';
import { startThresholdWorker, type ThresholdWorkerSettings } from '../src/service';
export { expectedLru } from '../../../tests/support/lru-reference';
import { until as poll } from '../../../tests/support/poll';

/**
 * Storage and threshold-workers in one process on the in-process bus, NeDB and a blob directory —
 * for the worker's tests and bench/threshold-sweep.ts. Data is built by writing documents straight
 * into storage's collections (never through uploads), counters included.
 */
export interface SweepKit {
  bus: MemoryBus;
  repo: StorageRepo;
  blobs: DirBlobStore;
  /** Root directory of `blobs` (a blob's file is `<blobDir>/<key>`). */
  blobDir: string;
  /** Starts one more worker replica (its own bus connection and metrics registry). */
  startWorker(settings?: Partial<ThresholdWorkerSettings>): Promise<WorkerReplica>;
  stop(): Promise<void>;
}

export interface WorkerReplica extends Stoppable {
  metrics: Registry;
}

/** `persistent`: a database file on disk (as in production) rather than in memory. */
export async function startSweepKit(opts: { persistent?: boolean; logger?: Logger } = {}): Promise<SweepKit> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-sweep-'));
  const hub = MemoryBus.hub();
  const logger = opts.logger ?? createLogger({ name: 'sweep-test', level: 'silent' });
  const docs = new SqliteDocStore(opts.persistent ? { file: path.join(root, 'storage.sqlite') } : {});
  const blobDir = path.join(root, 'blobs');
  const blobs = new DirBlobStore({ dir: blobDir });
  const storage = await startStorageService(
    { bus: new MemoryBus(hub), docs, blobs, logger, metrics: new Registry() },
    {
      storageUrl: 'http://files.test',
      uploadStaleMs: 3600_000,
      sweepIntervalMs: 3600_000,
      busTimeoutMs: 5000,
    },
  );
  const repo = await openStorageRepo(docs);
  const workers: Stoppable[] = [];
  const bus = new MemoryBus(hub);
  return {
    bus,
    repo,
    blobs,
    blobDir,
    async startWorker(settings = {}) {
      const metrics = new Registry();
      const workerBus = new MemoryBus(hub);
      const w = await startThresholdWorker(
        { bus: workerBus, docs, blobs, logger, metrics },
        { intervalMs: 3600_000, busTimeoutMs: 5000, ...settings },
      );
      const replica = {
        metrics,
        stop: async () => {
          await w.stop();
          await workerBus.close();
        },
      };
      workers.push(replica);
      return replica;
    },
    async stop() {
      for (const w of workers) await w.stop();
      await storage.stop();
      await bus.close();
      await docs.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A container document with CONTAINER_DEFAULTS and zero counters; `settings` overrides. */
export function containerDoc(settings: Partial<ContainerDoc> = {}): ContainerDoc {
  const now = new Date();
  return {
    ...CONTAINER_DEFAULTS,
    quota_files: 1_000_000,
    quota_bytes: 1e12,
    container_sid: randomUUID(),
    partner_sid: 'partner-test',
    is_default: false,
    total_files: 0,
    total_bytes: 0,
    threshold_total_files: 0,
    threshold_total_bytes: 0,
    threshold_exceeded_at: null,
    date_created: now,
    date_modified: now,
    ...settings,
  } as ContainerDoc;
}

/** A file document of `container`, last accessed at `accessed`. */
export function fileDoc(c: ContainerDoc, accessed: Date, fields: Partial<FileDoc> = {}): FileDoc {
  const sid = fields.file_sid ?? randomUUID();
  return {
    file_sid: sid,
    partner_sid: c.partner_sid,
    container_sid: c.container_sid,
    blob_key: `files/${c.partner_sid}/${sid}`,
    name: 'N/A',
    mime_type: 'application/octet-stream',
    type: 'file',
    content_classification: 'unknown',
    content_format: null,
    content_duration: null,
    content_transcoding_progress: null,
    desired_format: null,
    desired_bitrate: null,
    file_access_name: sid,
    file_bytes: 100,
    publish: 'file_sid',
    threshold_include: true,
    lifecycle_action: 'no_action',
    lifecycle_ttl: -1,
    unique: false,
    parent_file_sid: null,
    ...NO_KEYS,
    date_created: accessed,
    date_modified: accessed,
    date_last_accessed: accessed,
    ...fields,
  };
}

/**
 * Inserts the container and its files with matching counters (as storage's own counters would be),
 * and writes a blob for each file when `withBlobs` is set.
 */
export async function seed(
  kit: Pick<SweepKit, 'repo' | 'blobs'>,
  c: ContainerDoc,
  files: FileDoc[],
  withBlobs = false,
): Promise<void> {
  const counted = files.filter((f) => f.threshold_include);
  c.total_files = files.length;
  c.total_bytes = files.reduce((n, f) => n + f.file_bytes, 0);
  c.threshold_total_files = counted.length;
  c.threshold_total_bytes = counted.reduce((n, f) => n + f.file_bytes, 0);
  await kit.repo.containers.insertOne(c);
  for (let i = 0; i < files.length; i += 5000) await kit.repo.files.insertMany(files.slice(i, i + 5000));
  if (withBlobs)
    for (const f of files)
      await kit.blobs.put(f.blob_key, Readable.from([Buffer.alloc(Math.min(f.file_bytes, 64), 1)]));
}

/** Polls (see tests/support/poll), 10 s by default, every 20 ms. */
export const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> =>
  poll(what, timeoutMs, check, { everyMs: 20 });

/** A counter's total over the label sets matching `labels`, from a registry. */
export async function metricTotal(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const m = await registry.getSingleMetric(name)?.get();
  return (m?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((s, v) => s + v.value, 0);
}

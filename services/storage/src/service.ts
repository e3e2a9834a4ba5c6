import {
  IdentityEvents,
  PROBE_WAIT_MS,
  Queues,
  StorageRequests,
  Subjects,
  TranscoderEvents,
} from '@patchbay/contracts';
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_LARGE_LISTS,
  KeyRing,
  backfillPartners,
  openKeyRing,
  quietly,
  serveEvents,
  serveRequests,
  stopAll,
  type ServiceDeps,
  type Stoppable,
  KeptAnswers,
} from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import { STORAGE_KEYS, type StorageSettings } from './config';
import type { StorageContext } from './context';
import { CopyCache } from './copy-cache';
import { externalDeadlineMs } from './external-deadline';
import { KeyedLock } from './keyed-lock';
import { MaintenanceLoop } from './maintenance-loop';
import { openStorageRepo } from './repo';
import { blobStoreHandlers } from './handlers/blob-stores';
import { containerHandlers } from './handlers/containers';
import { copyHandlers } from './handlers/copies';
import { encryptionKeyHandlers } from './handlers/encryption-keys';
import { fileHandlers } from './handlers/files';
import { mediaHandlers } from './handlers/media';
import { sweepHandlers } from './handlers/sweeps';
import { usageHandlers } from './handlers/usage';
import { uploadHandlers } from './handlers/uploads';
import { ensureDefaultContainer } from './operations/containers';
import { reconcileCounters, requeueUnfinishedTranscoding, runMaintenance } from './operations/maintenance';
import { removeStaleUploads } from './operations/uploads';
import { runQueuedProbe } from './operations/media-probe';
import { recordTranscodingFailure, recordTranscodingProgress, swapInTranscodedData } from './operations/transcoding';
import { BusProbeQueue } from './probes/bus-probe-queue';
import { StoreProbeQueue } from './probes/store-probe-queue';

/** Probe settings when none are given (tests): as the configuration's defaults, failed probes on the bus. */
const DEFAULT_PROBE: NonNullable<StorageSettings['probe']> = {
  timeoutMs: PROBE_WAIT_MS,
  retry: { firstMs: 5_000, maxMs: 60_000 },
  queue: 'bus',
};

/**
 * The storage service: owns containers and file metadata; the bytes live in the blob store.
 * On start it puts counters right, removes what dead uploads left, enqueues again the transcoding
 * jobs a dead in-process bus lost, and creates the default container of every partner it has not
 * seen (durable `evt.partner.created`, replayed from the beginning).
 */
export async function startStorageService(deps: ServiceDeps, settings: StorageSettings): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'storage' });
  const repo = await openStorageRepo(deps.docs);
  // Tests may leave the keys out: a key for this process only (nothing sealed with it outlives it).
  const keys = settings.credentialKeys
    ? openKeyRing(settings.credentialKeys, log, STORAGE_KEYS)
    : new KeyRing(randomBytes(32), [], 'storage');
  const probe = settings.probe ?? DEFAULT_PROBE;
  const probeLog = log.child({ mod: 'media-probe' });
  const probes =
    probe.queue === 'store'
      ? new StoreProbeQueue(repo.pendingProbes, { retry: probe.retry, log: probeLog })
      : new BusProbeQueue(deps.bus, { retry: probe.retry, timeoutMs: probe.timeoutMs, log: probeLog });
  const ctx: StorageContext = {
    repo,
    blobs: deps.blobs,
    bus: deps.bus,
    log,
    storageUrl: settings.storageUrl.replace(/\/$/, ''),
    busTimeoutMs: settings.busTimeoutMs,
    externalDeadlineMs: externalDeadlineMs(settings.busTimeoutMs),
    allowPrivateExternalStorage: settings.allowPrivateExternalStorage ?? false,
    keys,
    containerLocks: new KeyedLock(),
    lists: new ListGate(settings.largeLists ?? DEFAULT_LARGE_LISTS),
    probes,
    probe,
  };
  if (settings.reconcileOnStart ?? true) await reconcileCounters(ctx);
  await removeStaleUploads(ctx, settings.uploadStaleMs);
  const copies = new CopyCache(repo.copies, repo.files, deps.blobs, settings.copyCacheBytes ?? 1024 ** 3, log);
  const subs: Stoppable[] = [];
  // The transcoder's reports of upload-time jobs (operations/transcoding.ts) are consumed before any job is enqueued
  // again. Each is handled under the request ID the upload had (carried by the job and its events).
  subs.push(
    ...(await serveEvents(
      deps.bus,
      Queues.storage,
      TranscoderEvents,
      {
        [Subjects.events.fileTranscodingProgress]: (event) => recordTranscodingProgress(ctx, event),
        [Subjects.events.fileTranscodingFailed]: (event, mc) => recordTranscodingFailure(ctx, event, mc.log),
        [Subjects.events.fileTranscodingDone]: (event, mc) => swapInTranscodedData(ctx, event, mc.log),
      },
      log,
    )),
  );
  if (settings.requeueTranscodingOnStart ?? true) {
    await requeueUnfinishedTranscoding(ctx).catch((err: unknown) =>
      log.error({ err }, 'unfinished transcoding jobs could not be enqueued again'),
    );
  }
  subs.push(await probes.start((fileSid, failures) => runQueuedProbe(ctx, fileSid, failures)));
  subs.push(
    ...(await serveEvents(
      deps.bus,
      Queues.storage,
      IdentityEvents,
      { [Subjects.events.partnerCreated]: ({ partner }) => ensureDefaultContainer(ctx, partner.partner_sid) },
      log,
    )),
  );
  const backfill = backfillPartners(deps.bus, (sid) => ensureDefaultContainer(ctx, sid), log);
  // Requests last: nothing answers on the bus before the service is ready (decisions §49).
  subs.push(
    ...(await serveRequests(
      deps.bus,
      Queues.storage,
      StorageRequests,
      {
        ...containerHandlers(ctx),
        ...encryptionKeyHandlers(ctx),
        ...uploadHandlers(ctx),
        ...fileHandlers(ctx),
        ...mediaHandlers(ctx),
        ...blobStoreHandlers(ctx),
        ...sweepHandlers(ctx),
        ...usageHandlers(ctx),
        ...copyHandlers(copies),
      },
      log,
      { answers: await KeptAnswers.open(deps.docs, log) },
    )),
  );
  // Upkeep that grows with the stored objects runs once the service is ready, never before it, and
  // quietly: housekeeping on a timer makes no trace (tracing/quiet.ts).
  const maintenance = new MaintenanceLoop(
    (signal) => quietly(() => runMaintenance(ctx, copies, settings.uploadStaleMs, signal)),
    settings.sweepIntervalMs,
    log,
  ).start();
  log.info('storage service ready');
  return {
    stop: async () => {
      await maintenance.stop();
      copies.stop();
      backfill.stop();
      await stopAll(subs);
    },
  };
}

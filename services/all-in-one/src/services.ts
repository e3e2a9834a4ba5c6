import type { Static } from '@sinclair/typebox';
import type { ServiceDeps, Stoppable } from '@patchbay/platform';
import { startStorageService, storageCredentialKeys } from '@patchbay/storage';
import { startTranscoderService, transcoderSettings } from '@patchbay/transcoder';
import { startThresholdWorker } from '@patchbay/threshold-worker';
import type { AllInOneConfig } from './config';
import { startIdentityService, identitySettings } from '@patchbay/identity';
import { recordsSettings, startRecordsService } from '@patchbay/records';
import { startEndpointService, endpointSettings } from '@patchbay/endpoint';
import { startPushService, pushSettingsFrom } from '@patchbay/push';

/** A bus-only service and what it needs; the all-in-one process starts each of them. */
export interface ServiceEntry {
  name: string;
  /** Owns a document store (its own directory or database). */
  docs: boolean;
  start(deps: ServiceDeps, config: Readonly<Static<typeof AllInOneConfig>>): Promise<Stoppable>;
}

/** Every service behind the gateway, in start order. */
export const SERVICES: ServiceEntry[] = [
  { name: 'identity', docs: true, start: (deps, c) => startIdentityService(deps, identitySettings(c)) },
  { name: 'records', docs: true, start: (deps, c) => startRecordsService(deps, recordsSettings(c)) },
  { name: 'transcoder', docs: false, start: (deps, c) => startTranscoderService(deps, transcoderSettings(c)) },
  {
    name: 'storage', docs: true,
    start: (deps, c) => startStorageService(deps, {
      storageUrl: c.STORAGE_URL ?? `http://127.0.0.1:${c.STORAGE_PORT}`, uploadStaleMs: c.UPLOAD_STALE_MS, sweepIntervalMs: c.UPLOAD_SWEEP_INTERVAL_MS, busTimeoutMs: c.BUS_TIMEOUT_MS,
      // One process owns the store here, unless MongoDB is shared with other replicas.
      reconcileOnStart: c.STORAGE_RECONCILE_ON_START ?? !c.MONGODB_URL,
      requeueTranscodingOnStart: c.STORAGE_REQUEUE_TRANSCODING_ON_START ?? !c.NATS_URL,
      credentialKeys: storageCredentialKeys(c),
    }),
  },
  { name: 'threshold-worker', docs: false, start: (deps, c) => startThresholdWorker(deps, { intervalMs: c.THRESHOLD_SWEEP_INTERVAL * 1000, busTimeoutMs: c.BUS_TIMEOUT_MS }) },
  { name: 'endpoint', docs: true, start: (deps, c) => startEndpointService(deps, endpointSettings(c)) },
  { name: 'push', docs: true, start: (deps, c) => startPushService(deps, pushSettingsFrom(c)) },
];

import type { Static } from '@sinclair/typebox';
import type { ServiceDeps, Stoppable } from '@patchbay/platform';
import { startStorageService, storageSettings } from '@patchbay/storage';
import { startTranscoderService, transcoderSettings } from '@patchbay/transcoder';
import { startThresholdWorker, thresholdWorkerSettings } from '@patchbay/threshold-worker';
import type { AllInOneConfig } from './config';
import { startIdentityService, identitySettings } from '@patchbay/identity';
import { recordsSettings, startRecordsService } from '@patchbay/records';
import { startEndpointService, endpointSettings } from '@patchbay/endpoint';
import { startPushService, pushSettings } from '@patchbay/push';

/** A bus-only service and what it needs; the all-in-one process starts each of them. */
export interface ServiceEntry {
  name: string;
  /** Owns a document store (its own directory or database). */
  docs: boolean;
  start(deps: ServiceDeps, config: Readonly<Static<typeof AllInOneConfig>>): Promise<Stoppable>;
}

/**
 * Every service behind the gateway, in start order; each started with its own settings function, as its main.ts does.
 */
export const SERVICES: ServiceEntry[] = [
  { name: 'identity', docs: true, start: (deps, c) => startIdentityService(deps, identitySettings(c)) },
  { name: 'records', docs: true, start: (deps, c) => startRecordsService(deps, recordsSettings(c)) },
  { name: 'transcoder', docs: false, start: (deps, c) => startTranscoderService(deps, transcoderSettings(c)) },
  { name: 'storage', docs: true, start: (deps, c) => startStorageService(deps, storageSettings(c)) },
  { name: 'threshold-worker', docs: false, start: (deps, c) => startThresholdWorker(deps, thresholdWorkerSettings(c)) },
  { name: 'endpoint', docs: true, start: (deps, c) => startEndpointService(deps, endpointSettings(c)) },
  { name: 'push', docs: true, start: (deps, c) => startPushService(deps, pushSettings(c)) },
];

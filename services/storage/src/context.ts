import type { BlobStore, Bus, KeyRing, Logger } from '@patchbay/platform';
import type { ListGate } from '@patchbay/query';
import type { ProbeRetry } from './domain/probe-retry';
import type { KeyedLock } from './keyed-lock';
import type { ProbeQueue } from './probes/probe-queue';
import type { StorageRepo } from './repo';

/** What every storage operation works with (built once by service.ts). */
export interface StorageContext {
  repo: StorageRepo;
  /** Patchbay's blob store, routing `ext/…` keys to external containers' storage. */
  blobs: BlobStore;
  bus: Bus;
  log: Logger;
  /** Public root of the file server, for `publish_uri`. */
  storageUrl: string;
  busTimeoutMs: number;
  /** What a request's calls to a partner's external storage may take in all (external-deadline.ts). */
  externalDeadlineMs: number;
  /** EXTERNAL_STORAGE_ALLOW_PRIVATE: external containers may use loopback, private… addresses. */
  allowPrivateExternalStorage: boolean;
  /** Seals and unseals external containers' credentials (decisions §28). */
  keys: KeyRing;
  /** The LRU sweep's requests about one container run one at a time in this process (operations/lru-sweep.ts). */
  containerLocks: KeyedLock;
  /** Bounds the large lists of files built and sent at once (LIST_LARGE_*). */
  lists: ListGate;
  /** The durable queue media probes that failed are retried from (decisions §49). */
  probes: ProbeQueue;
  /** STORAGE_PROBE_TIMEOUT_MS, and how a failed probe is retried (STORAGE_PROBE_RETRY_MS, _MAX_MS). */
  probe: { timeoutMs: number; retry: ProbeRetry };
}

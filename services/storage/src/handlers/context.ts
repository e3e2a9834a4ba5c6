import type { Bus, KeyRing, Logger } from '@patchbay/platform';
import type { StorageRepo } from '../repo';

/** What every storage handler works with. */
export interface StorageContext {
  repo: StorageRepo;
  bus: Bus;
  log: Logger;
  /** Public root of the file server, for `publish_uri`. */
  storageUrl: string;
  busTimeoutMs: number;
  /** Seals and opens external containers' credentials (ADR 28). */
  keys: KeyRing;
}

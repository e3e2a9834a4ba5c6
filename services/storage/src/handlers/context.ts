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
  /** What a request's calls to a partner's external storage may take in all (external-deadline.ts). */
  externalDeadlineMs: number;
  /** EXTERNAL_STORAGE_ALLOW_PRIVATE: external containers may use loopback, private… addresses. */
  allowPrivateExternalStorage: boolean;
  /** Seals and opens external containers' credentials (decisions §28). */
  keys: KeyRing;
}

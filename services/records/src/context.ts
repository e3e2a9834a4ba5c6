import type { StorageClient } from '@patchbay/contracts';
import type { KeyRing, Logger } from '@patchbay/platform';
import type { ListGate } from '@patchbay/query';
import type { ExportSettings, RecordsSettings } from './config';
import type { RecordsRepo } from './repo';

/** What every records operation works with (built once by service.ts). */
export interface RecordsContext {
  repo: RecordsRepo;
  log: Logger;
  settings: RecordsSettings;
  /** Bounds the large pages of detail records built and sent at once (LIST_LARGE_*). */
  lists: ListGate;
  /**
   * Record exports: storage (the target container), their settings, the key ring their callback signing keys are
   * sealed with (RECORDS_CREDENTIALS_KEY), and the job to wake when one is queued.
   */
  exports: {
    storage: StorageClient;
    settings: ExportSettings;
    ring: KeyRing;
    queued(): void;
  };
}

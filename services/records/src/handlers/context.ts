import type { Logger } from '@patchbay/platform';
import type { RecordsSettings } from '../config';
import type { RecordsRepo } from '../repo';

/** What every records handler works with. */
export interface RecordsContext {
  repo: RecordsRepo;
  log: Logger;
  settings: RecordsSettings;
}

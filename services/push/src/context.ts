import type { IdentityClient } from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import type { PushSettings } from './config';
import type { PushRepo } from './repo';
import type { OpenedCredentials } from './secrets/opened-credentials';
import type { SenderPool } from './senders/sender-pool';
import type { KeyRing } from '@patchbay/platform';
import type { ListGate } from '@patchbay/query';

/** What every push operation works with (built once by service.ts). */
export interface PushContext {
  repo: PushRepo;
  bus: Bus;
  log: Logger;
  pool: SenderPool;
  /** The applications' credentials, opened once and kept while they do not change (secrets/opened-credentials.ts). */
  credentials: OpenedCredentials;
  settings: PushSettings;
  /** Partner objects for `with_related`. */
  identity: IdentityClient;
  /** Seals and opens the applications' credentials. */
  keys: KeyRing;
  /** Bounds the large lists of devices built and sent at once (LIST_LARGE_*). */
  lists: ListGate;
}

import type { Bus, Logger } from '@patchbay/platform';
import type { IdempotencyKeys } from '../idempotency-keys';
import type { LoginThrottle } from '../login-throttle';
import type { IdentityRepo } from '../repo';

/** What every identity handler works with. */
export interface IdentityContext {
  repo: IdentityRepo;
  bus: Bus;
  log: Logger;
  throttle: LoginThrottle;
  idempotency: IdempotencyKeys;
}

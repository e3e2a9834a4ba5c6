import type { Bus, Logger } from '@patchbay/platform';
import type { IdempotencyKeys } from './idempotency-keys';
import type { LoginThrottle } from './login-throttle';
import type { IdentityRepo } from './repo';

/** What every identity operation works with (built once by service.ts). */
export interface IdentityContext {
  repo: IdentityRepo;
  bus: Bus;
  log: Logger;
  throttle: LoginThrottle;
  idempotency: IdempotencyKeys;
}

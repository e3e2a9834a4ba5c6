import { Type, type Static } from '@sinclair/typebox';
import type { ThrottlePolicy } from './domain/login-throttle';

/** The identity service's own environment keys (composed with CommonConfig by its main and by all-in-one). */
export const IdentityConfig = {
  /** Failed password checks of one login, within LOGIN_FAILURE_WINDOW_SECONDS, that lock it. */
  LOGIN_MAX_FAILURES: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  /** First lock of a login (seconds); each lock that follows doubles it, up to 15 minutes. */
  LOGIN_LOCK_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 60 }),
  /** Failed password checks from one client address, within the window, that lock the address. */
  ADDRESS_MAX_FAILURES: Type.Integer({ minimum: 1, maximum: 100000, default: 30 }),
  /** First lock of an address (seconds); doubles for each lock that follows, up to an hour. */
  ADDRESS_LOCK_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
  /** How long failures are remembered (seconds). */
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 900 }),
  /** How long an Idempotency-Key and its answer are kept after the answer (hours; at least 24). */
  IDEMPOTENCY_KEY_HOURS: Type.Integer({ minimum: 24, maximum: 720, default: 24 }),
};

export const identitySchema = Type.Object(IdentityConfig);
export type IdentityConfigValues = Static<typeof identitySchema>;

export interface IdentitySettings {
  /** Throttling of failed logins, per login and per client address (docs/operations.md). */
  throttle: { login: ThrottlePolicy; address: ThrottlePolicy };
  /** How long an Idempotency-Key and its answer are kept after the answer (ms). */
  idempotencyKeyMs: number;
}

/** The one mapping from configuration to settings, used by main.ts and the all-in-one process alike. */
export function identitySettings(c: IdentityConfigValues): IdentitySettings {
  const windowMs = c.LOGIN_FAILURE_WINDOW_SECONDS * 1000;
  return {
    throttle: {
      login: {
        maxFailures: c.LOGIN_MAX_FAILURES,
        windowMs,
        lockMs: c.LOGIN_LOCK_SECONDS * 1000,
        maxLockMs: Math.max(c.LOGIN_LOCK_SECONDS * 1000, 900_000),
        slowMs: 250,
        maxSlowMs: 2000,
      },
      address: {
        maxFailures: c.ADDRESS_MAX_FAILURES,
        windowMs,
        lockMs: c.ADDRESS_LOCK_SECONDS * 1000,
        maxLockMs: Math.max(c.ADDRESS_LOCK_SECONDS * 1000, 3_600_000),
        slowMs: 0,
        maxSlowMs: 0,
      },
    },
    idempotencyKeyMs: c.IDEMPOTENCY_KEY_HOURS * 3_600_000,
  };
}

/** The defaults, for tests and tools that start the service without an environment. */
export const DEFAULT_IDENTITY_SETTINGS: IdentitySettings = identitySettings({
  LOGIN_MAX_FAILURES: 5,
  LOGIN_LOCK_SECONDS: 60,
  ADDRESS_MAX_FAILURES: 30,
  ADDRESS_LOCK_SECONDS: 300,
  LOGIN_FAILURE_WINDOW_SECONDS: 900,
  IDEMPOTENCY_KEY_HOURS: 24,
});

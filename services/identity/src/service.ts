import { IdentityRequests, Queues } from '@patchbay/contracts';
import { quietly, serveRequests, stopAll, type ServiceDeps, type Stoppable, KeptAnswers } from '@patchbay/platform';
import { DEFAULT_IDENTITY_SETTINGS, type IdentitySettings } from './config';
import { authHandlers } from './handlers/auth';
import { bootstrapHandlers } from './handlers/bootstrap';
import type { IdentityContext } from './context';
import { idempotencyHandlers } from './handlers/idempotency';
import { IdempotencyKeys } from './idempotency-keys';
import { partnerHandlers } from './handlers/partners';
import { tokenHandlers } from './handlers/tokens';
import { LoginThrottle } from './login-throttle';
import { openIdentityRepo } from './repo';

/** Counters of failed logins whose window and lock are over, and expired idempotency keys, are forgotten this often. */
const FORGET_EXPIRED_MS = 60_000;

/**
 * The identity service: owns partners and tokens, authenticates every gateway call. Tokens and
 * passwords are stored hashed; a token's secret is returned once, at creation.
 */
export async function startIdentityService(
  deps: ServiceDeps,
  settings: IdentitySettings = DEFAULT_IDENTITY_SETTINGS,
): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'identity' });
  const repo = await openIdentityRepo(deps.docs);
  const ctx: IdentityContext = {
    repo,
    bus: deps.bus,
    log,
    throttle: new LoginThrottle(repo.loginAttempts, settings.throttle, log),
    idempotency: new IdempotencyKeys(repo.idempotencyKeys, settings.idempotencyKeyMs, log),
  };
  const subs = await serveRequests(
    deps.bus,
    Queues.identity,
    IdentityRequests,
    {
      ...authHandlers(ctx),
      ...partnerHandlers(ctx),
      ...tokenHandlers(ctx),
      ...bootstrapHandlers(ctx),
      ...idempotencyHandlers(ctx),
    },
    log,
    { answers: await KeptAnswers.open(deps.docs, log) },
  );
  // Housekeeping, once a minute: quiet, no trace of its own (tracing/quiet.ts).
  const forgetting = setInterval(() => {
    void quietly(() => ctx.throttle.forgetExpired()).catch((err: unknown) =>
      log.warn({ err }, 'expired login counters could not be forgotten'),
    );
    void quietly(() => ctx.idempotency.forgetExpired()).catch((err: unknown) =>
      log.warn({ err }, 'expired idempotency keys could not be forgotten'),
    );
  }, FORGET_EXPIRED_MS);
  forgetting.unref();
  log.info('identity service ready');
  return {
    stop: async () => {
      clearInterval(forgetting);
      await stopAll(subs);
    },
  };
}

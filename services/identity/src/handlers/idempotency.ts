import {
  Subjects,
  type IdempotencyFinishRequest,
  type IdempotencyBeginRequest,
  type IdempotencyReleaseRequest,
  type IdempotencyRenewRequest,
} from '@patchbay/contracts';
import type { IdentityContext } from '../context';

/** The gateway's Idempotency-Key records (idempotency-keys.ts; messages/idempotency.ts says what travels). */
export function idempotencyHandlers(ctx: IdentityContext) {
  const keys = ctx.idempotency;
  return {
    [Subjects.identity.idempotencyBegin]: (req: IdempotencyBeginRequest) => keys.begin(req),
    [Subjects.identity.idempotencyFinish]: async (req: IdempotencyFinishRequest) => ({ held: await keys.finish(req) }),
    [Subjects.identity.idempotencyRelease]: async (req: IdempotencyReleaseRequest) => ({
      held: await keys.release(req),
    }),
    [Subjects.identity.idempotencyRenew]: async (req: IdempotencyRenewRequest) => ({ held: await keys.renew(req) }),
  };
}

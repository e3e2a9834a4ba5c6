import { Subjects, type BootstrapRequest } from '@patchbay/contracts';
import type { IdentityContext } from '../context';
import { bootstrapOperator, operatorReady } from '../operations/bootstrap';

/** The operator partner: whether it exists yet, and making sure it does. */
export function bootstrapHandlers(ctx: IdentityContext) {
  return {
    [Subjects.identity.ready]: () => operatorReady(ctx),
    [Subjects.identity.bootstrap]: (input: BootstrapRequest) => bootstrapOperator(ctx, input),
  };
}

import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { IdentityContext } from '../context';
import { getToken, listTokens, revokeToken, updateToken } from '../operations/tokens';

/** Tokens of the caller's partner: list, get, update (name, scopes), revoke. */
export function tokenHandlers(ctx: IdentityContext) {
  return {
    [Subjects.identity.tokenList]: (req: GatewayRequest) => listTokens(ctx, req),
    [Subjects.identity.tokenGet]: (req: GatewayRequest) => getToken(ctx, req),
    [Subjects.identity.tokenUpdate]: (req: GatewayRequest) => updateToken(ctx, req),
    [Subjects.identity.tokenRevoke]: (req: GatewayRequest) => revokeToken(ctx, req),
  };
}

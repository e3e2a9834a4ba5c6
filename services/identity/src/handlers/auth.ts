import { Subjects } from '@patchbay/contracts';
import type { IdentityContext } from '../context';
import { authenticateBasic, authenticateToken, issueTokenForPassword } from '../operations/auth';

/** Authentication: a bearer token, HTTP Basic, and the password grant of `/oauth/token`. */
export function authHandlers(ctx: IdentityContext) {
  return {
    [Subjects.identity.authenticateToken]: (req: { token: string }) => authenticateToken(ctx, req),
    [Subjects.identity.authenticateBasic]: (req: { login: string; password: string; client_ip?: string }) =>
      authenticateBasic(ctx, req),
    [Subjects.identity.tokenIssue]: (req: { form?: unknown; client_ip?: string }) => issueTokenForPassword(ctx, req),
  };
}

import { ALL_SCOPES, type BootstrapReply, type BootstrapRequest } from '@patchbay/contracts';
import { hashPassword, hashToken, newPassword, verifyPassword } from '../domain/secrets';
import { serializePartner } from '../domain/serialize';
import type { IdentityContext } from '../context';
import { createPartner } from './partners';
import { issueToken } from './tokens';

/**
 * Whether credentials can work yet: the operator partner exists (the launcher bootstraps it once
 * every service answers). The gateway's /health waits for it (decisions §41).
 */
export async function operatorReady(ctx: IdentityContext): Promise<{ ready: boolean }> {
  const { repo } = ctx;
  const operator = await repo.partners.findOne(
    { available_scopes: 'media.manage' },
    { projection: { partner_sid: 1 } },
  );
  return { ready: operator !== null };
}

/**
 * Makes sure the first partner exists, holding every scope — the operator-only `media.manage` too,
 * which no other partner can be given. Idempotent: fixed login, password and token are (re)applied; generated
 * ones are made and returned only when the partner is created.
 */
export async function bootstrapOperator(ctx: IdentityContext, input: BootstrapRequest): Promise<BootstrapReply> {
  const { repo } = ctx;
  const login = input.login ?? 'admin';
  let partner = await repo.partners.findOne({ login });
  let generatedPassword: string | null = null;
  let created = false;
  if (!partner) {
    generatedPassword = input.password ? null : newPassword();
    partner = await createPartner(
      ctx,
      {
        name: 'Bootstrap partner',
        login,
        password: input.password ?? generatedPassword!,
        available_scopes: [...ALL_SCOPES],
      },
      null,
    );
    created = true;
  } else {
    if (input.password && !(await verifyPassword(input.password, partner.password_hash))) {
      await repo.partners.updateOne({ login }, { $set: { password_hash: await hashPassword(input.password) } });
    }
    // Scopes added by a later release (media.manage) reach the operator on its next start.
    const missing = ALL_SCOPES.filter((s) => !partner!.available_scopes.includes(s));
    if (missing.length > 0)
      partner =
        (await repo.partners.findOneAndUpdate({ login }, { $set: { available_scopes: [...ALL_SCOPES] } })) ?? partner;
  }
  let generatedToken: string | null = null;
  if (input.token) {
    if (!(await repo.tokens.findOne({ token_hash: hashToken(input.token) })))
      await issueToken(ctx, partner, { name: 'bootstrap', secret: input.token });
  } else if (created) {
    generatedToken = (await issueToken(ctx, partner, { name: 'bootstrap' })).access_token;
  }
  return {
    created,
    login,
    partner: serializePartner(partner),
    password: generatedPassword,
    access_token: generatedToken,
    password_from_env: Boolean(input.password),
    token_from_env: Boolean(input.token),
  };
}

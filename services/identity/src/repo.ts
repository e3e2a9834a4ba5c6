import type { Collection, DocStore } from '@patchbay/platform';
import type { IdempotencyKeyDoc, LoginAttemptDoc, PartnerDoc, TokenDoc } from './domain/documents';

export interface IdentityRepo {
  partners: Collection<PartnerDoc>;
  tokens: Collection<TokenDoc>;
  loginAttempts: Collection<LoginAttemptDoc>;
  idempotencyKeys: Collection<IdempotencyKeyDoc>;
}

/** The identity service's collections and their indexes (created idempotently at start). */
export async function openIdentityRepo(docs: DocStore): Promise<IdentityRepo> {
  const partners = docs.collection<PartnerDoc>('partners');
  const tokens = docs.collection<TokenDoc>('tokens');
  await partners.createIndex({ partner_sid: 1 }, { unique: true });
  await partners.createIndex({ login: 1 }, { unique: true });
  await tokens.createIndex({ token_sid: 1 }, { unique: true });
  await tokens.createIndex({ token_hash: 1 }, { unique: true });
  await tokens.createIndex({ partner_sid: 1, date_created: 1 });
  const loginAttempts = docs.collection<LoginAttemptDoc>('login_attempts');
  await loginAttempts.createIndex({ key: 1 }, { unique: true });
  await loginAttempts.createIndex({ expires_at: 1 }, { sparse: true });
  const idempotencyKeys = docs.collection<IdempotencyKeyDoc>('idempotency_keys');
  await idempotencyKeys.createIndex({ partner_sid: 1, key_hash: 1 }, { unique: true });
  await idempotencyKeys.createIndex({ expires_at: 1 });
  return { partners, tokens, loginAttempts, idempotencyKeys };
}

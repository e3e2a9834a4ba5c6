import type { Collection, DocStore } from '@patchbay/platform';
import type { Scope } from '@patchbay/contracts';
import type { KeyRecord } from './domain/idempotency';

export interface PartnerDoc extends Record<string, unknown> {
  partner_sid: string;
  /** The partner that created this one (null for the bootstrap partner). */
  parent_partner_sid: string | null;
  name: string;
  login: string;
  password_hash: string;
  available_scopes: Scope[];
  date_created: Date;
  status: 'active' | 'suspended';
  attributes: Record<string, unknown>;
}

export interface TokenDoc extends Record<string, unknown> {
  token_sid: string;
  token_hash: string;
  partner_sid: string;
  name: string | null;
  scopes: Scope[];
  date_created: Date;
  date_expiration_access_token: Date | null;
  date_last_accessed: Date | null;
}

/** Failed password checks of one login (`login:<login>`) or client address (`address:<ip>`). */
export interface LoginAttemptDoc extends Record<string, unknown> {
  key: string;
  failures: number;
  window_start?: Date | null;
  locked_until?: Date | null;
  locks?: number;
  /** When the counter may be forgotten: its window and its lock are both over. */
  expires_at?: Date;
}

/** An Idempotency-Key record (domain/idempotency.ts); unique by partner and key. */
export type IdempotencyKeyDoc = KeyRecord;

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

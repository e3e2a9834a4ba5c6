import type { Scope } from '@patchbay/contracts';
import type { KeyRecord } from './idempotency';

/**
 * What identity keeps, collection by collection (repo.ts opens the collections and their indexes):
 * plain shapes, so the rules and serializers of domain/ read them without the store.
 */

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

import type { Collection, Doc, DocStore, KeyRing, Logger } from '@patchbay/platform';
import { SealedEndpoints } from './secrets/sealed-endpoints';
import type { EndpointState } from './domain/endpoint-state';

/** An endpoint as stored: its public state plus bookkeeping that never leaves the service. */
export interface EndpointDoc extends EndpointState, Record<string, unknown> {
  endpoint_sid: string;
  partner_sid: string;
  /** Creation instant: the default list order. */
  date_created: Date;
  /** Bumped by every update; an update applies only to the revision it read (optimistic locking). */
  revision: number;
  /**
   * `<ip>:<port>` of each address while `auth_required` is false, absent otherwise. A sparse unique
   * multikey index on it makes "one auth_required=false endpoint per IP and port, across every
   * partner" hold under concurrent writes: the store refuses the second writer.
   */
  open_ip_keys?: string[];
  /** Set only on a partner's System Gateway; unique, so replayed partner events create one at most. */
  system_partner_sid?: string;
}

/**
 * A Voicemail callback to deliver (the outbox): written when storage reports a recording, tried
 * until a 2xx answer or until CALLBACK_RETRY_FOR_MS has passed. Kept in the store, so deliveries
 * survive restarts and any endpoint replica may carry one on (a lease keeps it to one at a time).
 */
export interface CallbackDoc extends Record<string, unknown> {
  file_sid: string;
  endpoint_sid: string;
  partner_sid: string;
  callback_url: string;
  callback_method: 'POST' | 'GET';
  /** The fields sent (docs/interface-notes.md, Media plane: the Voicemail callback). */
  fields: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  date_created: Date;
  next_attempt_at: Date | null;
  /** Until when a replica is delivering it (null: nobody). */
  lease_until: Date | null;
  date_delivered: Date | null;
  last_error: string | null;
}

export const OPEN_IP_INDEX = 'open_ip_keys_unique';
export const SYSTEM_GATEWAY_INDEX = 'system_partner_sid_unique';

export interface EndpointRepo {
  endpoints: Collection<EndpointDoc>;
  callbacks: Collection<CallbackDoc>;
}

/**
 * The endpoint collection (its secrets sealed with `secrets`) and its indexes (created idempotently at start): the SID;
 * the partner
 * (with creation time, the default order); `addresses.ip` (multikey: `filter=addresses.ip eq …`
 * is an index look-up); and the two sparse unique indexes above.
 */
export async function openEndpointRepo(
  docs: DocStore,
  secrets?: { ring: KeyRing; log: Logger },
): Promise<EndpointRepo> {
  // With `secrets`, the endpoints' secrets are sealed at rest (secrets/sealed-endpoints.ts); without,
  // the collection as stored (tests that look at what is on disk).
  const raw = docs.collection<Doc>('endpoints');
  const endpoints = secrets
    ? new SealedEndpoints(raw, secrets.ring, secrets.log)
    : docs.collection<EndpointDoc>('endpoints');
  await endpoints.createIndex({ endpoint_sid: 1 }, { unique: true });
  await endpoints.createIndex({ partner_sid: 1 });
  await endpoints.createIndex({ partner_sid: 1, date_created: 1 });
  await endpoints.createIndex({ 'addresses.ip': 1 });
  await endpoints.createIndex({ open_ip_keys: 1 }, { unique: true, sparse: true, name: OPEN_IP_INDEX });
  await endpoints.createIndex({ system_partner_sid: 1 }, { unique: true, sparse: true, name: SYSTEM_GATEWAY_INDEX });
  const callbacks = docs.collection<CallbackDoc>('voicemail_callbacks');
  await callbacks.createIndex({ file_sid: 1 }, { unique: true });
  await callbacks.createIndex({ state: 1, next_attempt_at: 1 });
  await callbacks.createIndex({ date_created: 1 });
  return { endpoints, callbacks };
}

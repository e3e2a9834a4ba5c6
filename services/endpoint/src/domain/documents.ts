import type { EndpointState } from './endpoint-state';

/*
 * What the endpoint service keeps, collection by collection (repo.ts opens the collections and their
 * indexes; secrets/ seals the endpoints' secrets at rest): plain shapes, so domain/ reads them without the store.
 */

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

import type { Collection, DocStore } from '@patchbay/platform';
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

export const OPEN_IP_INDEX = 'open_ip_keys_unique';
export const SYSTEM_GATEWAY_INDEX = 'system_partner_sid_unique';

export interface EndpointRepo {
  endpoints: Collection<EndpointDoc>;
}

/**
 * The endpoint collection and its indexes (created idempotently at start): the SID; the partner
 * (with creation time, the default order); `addresses.ip` (multikey: `filter=addresses.ip eq …`
 * is an index look-up); and the two sparse unique indexes above.
 */
export async function openEndpointRepo(docs: DocStore): Promise<EndpointRepo> {
  const endpoints = docs.collection<EndpointDoc>('endpoints');
  await endpoints.createIndex({ endpoint_sid: 1 }, { unique: true });
  await endpoints.createIndex({ partner_sid: 1 });
  await endpoints.createIndex({ partner_sid: 1, date_created: 1 });
  await endpoints.createIndex({ 'addresses.ip': 1 });
  await endpoints.createIndex({ open_ip_keys: 1 }, { unique: true, sparse: true, name: OPEN_IP_INDEX });
  await endpoints.createIndex({ system_partner_sid: 1 }, { unique: true, sparse: true, name: SYSTEM_GATEWAY_INDEX });
  return { endpoints };
}

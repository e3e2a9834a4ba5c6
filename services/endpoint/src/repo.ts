import type { Collection, Doc, DocStore, KeyRing, Logger } from '@patchbay/platform';
import { SealedEndpoints } from './secrets/sealed-endpoints';
import type { CallbackDoc, EndpointDoc } from './domain/documents';

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

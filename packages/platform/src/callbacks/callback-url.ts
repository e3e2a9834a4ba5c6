import { errorItem, type ErrorItem } from '@patchbay/contracts';
import { ADDRESS_NOT_ALLOWED, AddressNotAllowedError } from '../net/address-not-allowed-error';
import { assertPublicUrl } from '../net/check-outbound-url';

/**
 * Checks a callback URL a partner sets (a Voicemail endpoint's, a record export's), so the partner
 * learns at once what the callbacks would refuse later: an http or https URL, and — unless
 * `allowPrivate` (CALLBACK_ALLOW_PRIVATE) — not a loopback, private, link-local… address nor a name
 * resolving to one (the outbound-address guard, one fixed message). The send-time check stays
 * (signed-callback.ts): a name may resolve elsewhere by then. Null, or the problem naming `field`.
 */
export async function callbackUrlProblem(
  value: string,
  allowPrivate: boolean,
  field: string,
): Promise<ErrorItem | null> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return errorItem('callback_url must be an http or https URL', field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return errorItem('callback_url must be an http or https URL', field);
  if (url.hostname === '') return errorItem('callback_url must name a host', field);
  if (allowPrivate) return null;
  try {
    await assertPublicUrl(url);
    return null;
  } catch (err) {
    if (err instanceof AddressNotAllowedError) return errorItem(ADDRESS_NOT_ALLOWED, field);
    throw err;
  }
}

/** A URL for a log: without credentials or query (they may hold secrets of the receiver). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

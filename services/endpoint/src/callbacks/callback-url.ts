import { errorItem, type ErrorItem } from '@patchbay/contracts';
import { ADDRESS_NOT_ALLOWED, AddressNotAllowedError, assertPublicUrl } from '@patchbay/platform';

const FIELD = 'properties.callback_url';

/**
 * Checks a Voicemail `callback_url` when it is set (endpoint create or update), so a partner learns
 * at once what the callbacks would refuse later: an http or https URL, and — unless
 * CALLBACK_ALLOW_PRIVATE — not a loopback, private, link-local… address nor a name resolving to one
 * (the platform's outbound-address guard, one fixed message). The send-time check stays (sender.ts):
 * a name may resolve elsewhere by then. Null, or the problem to answer with a 422.
 */
export async function callbackUrlProblem(value: string, allowPrivate: boolean): Promise<ErrorItem | null> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return errorItem('callback_url must be an http or https URL', FIELD);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return errorItem('callback_url must be an http or https URL', FIELD);
  if (url.hostname === '') return errorItem('callback_url must name a host', FIELD);
  if (allowPrivate) return null;
  try {
    await assertPublicUrl(url);
    return null;
  } catch (err) {
    if (err instanceof AddressNotAllowedError) return errorItem(ADDRESS_NOT_ALLOWED, FIELD);
    throw err;
  }
}

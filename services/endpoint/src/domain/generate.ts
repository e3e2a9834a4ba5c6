import { randomBytes, randomUUID } from 'node:crypto';
import type { EndpointType } from '@patchbay/contracts';
import { HOSTED_API_SEGMENT, isHosted } from './endpoint-types';
import type { GeneratedValues } from './endpoint-state';

/**
 * The read-only values a new endpoint gets: a `voip_token` (used by third_party), and for hosted
 * types the hosted application's account: `account_sid`, `api_url` under `hostedApiUrl`, and a
 * random `login` and `password` (plus `subscriber_sid` for conference). Secrets come from the
 * system CSPRNG; they are the endpoint's own credentials and are returned on every read.
 */
export function generateValues(type: EndpointType, hostedApiUrl: string): GeneratedValues {
  const properties = isHosted(type)
    ? {
        account_sid: randomUUID(),
        api_url: `${hostedApiUrl}/${HOSTED_API_SEGMENT[type]}/v1`,
        login: `${type.replace(/_/g, '')}-${randomBytes(6).toString('hex')}`,
        password: randomBytes(18).toString('base64url'),
        subscriber_sid: randomUUID(),
      }
    : { account_sid: '', api_url: '', login: '', password: '', subscriber_sid: '' };
  return { voipToken: randomUUID(), properties };
}

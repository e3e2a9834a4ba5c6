import type { IdentityClient } from '@patchbay/contracts';
import type { Logger } from '@patchbay/platform';
import type { ListGate } from '@patchbay/query';
import type { CallbackDeliverer } from './callbacks/deliverer';
import type { EndpointSettings } from './config';
import type { EndpointLinks } from './links';
import type { EndpointRepo } from './repo';

/** What every endpoint operation works with (built once by service.ts). */
export interface EndpointContext {
  repo: EndpointRepo;
  /** Checks an endpoint's references (containers, conference endpoints, greetings) before a write. */
  links: EndpointLinks;
  /** Partner objects for `with_related`. */
  identity: IdentityClient;
  deliverer: CallbackDeliverer;
  settings: EndpointSettings;
  log: Logger;
  /** Bounds the large lists of endpoints built and sent at once (LIST_LARGE_*). */
  lists: ListGate;
}

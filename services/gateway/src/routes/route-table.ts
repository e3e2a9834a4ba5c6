import type { RouteDef } from '../http/route-def';
import { IDENTITY_ROUTES } from './identity-routes';
import { COUNTRY_ROUTES } from './country-routes';
import { RECORD_EXPORT_ROUTES } from './record-export-routes';
import { RECORD_ROUTES } from './record-routes';
import { RECORD_USAGE_ROUTES } from './record-usage-routes';
import { STORAGE_ROUTES } from './storage-routes';
import { ENDPOINT_ROUTES } from './endpoint-routes';
import { PUSH_ROUTES } from './push-routes';
import { MEDIA_ROUTES } from './media-routes';
import { DOCUMENT_ROUTES } from './document-routes';

export type { RouteDef } from '../http/route-def';

/** Every route of the core API and where it goes, one file per area: the complete index of the API. */
export const ROUTES: RouteDef[] = [
  ...IDENTITY_ROUTES,
  ...COUNTRY_ROUTES,
  // Before the records': `…/call_drs/exports` and `…/call_drs/usage` are not a `…/call_drs/:dr_sid`.
  ...RECORD_EXPORT_ROUTES,
  ...RECORD_USAGE_ROUTES,
  ...RECORD_ROUTES,
  ...STORAGE_ROUTES,
  ...ENDPOINT_ROUTES,
  ...PUSH_ROUTES,
  ...MEDIA_ROUTES,
  ...DOCUMENT_ROUTES,
];

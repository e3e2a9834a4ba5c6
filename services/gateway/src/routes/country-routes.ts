import { Subjects as S } from '@patchbay/contracts';
import type { RouteDef } from './route-def';

/** The country list. */
export const COUNTRY_ROUTES: RouteDef[] = [
  { method: 'get', path: '/countries', subject: S.records.countryList, scopes: ['countries.manage', 'countries.read'] },
  { method: 'get', path: '/countries/:iso_3166_alpha_3', subject: S.records.countryGet, scopes: ['countries.manage', 'countries.read'] },
];

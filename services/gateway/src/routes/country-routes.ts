import { CountrySchema, ListEnvelopeSchema, Subjects } from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';

/** The country list. */
export const COUNTRY_ROUTES: RouteDef[] = [
  {
    method: 'get',
    path: '/countries',
    subject: Subjects.records.countryList,
    scopes: ['countries.manage', 'countries.read'],
    doc: { summary: 'List countries', list: 'offset', responses: { 200: ListEnvelopeSchema(CountrySchema) } },
  },
  {
    method: 'get',
    path: '/countries/:iso_3166_alpha_3',
    subject: Subjects.records.countryGet,
    scopes: ['countries.manage', 'countries.read'],
    doc: { summary: 'Get a country by its ISO 3166 alpha-3 code', fields: true, responses: { 200: CountrySchema } },
  },
];

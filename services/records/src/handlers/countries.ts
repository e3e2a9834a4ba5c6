import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { RecordsContext } from '../context';
import { getCountry, listCountries } from '../operations/countries';

/** `GET /countries` and `GET /countries/{iso_3166_alpha_3}`. */
export function countryHandlers(ctx: RecordsContext) {
  return {
    [Subjects.records.countryList]: (req: GatewayRequest) => listCountries(ctx, req),
    [Subjects.records.countryGet]: (req: GatewayRequest) => getCountry(ctx, req),
  };
}

import { NotFoundError, type Country, type GatewayRequest } from '@patchbay/contracts';
import type { Collection } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import { COUNTRY_LIST_SPEC } from '../domain/list-specs';
import { serializeCountry } from '../domain/serialize';

/** `GET /countries` (offset pagination, filter, field filtering) and `GET /countries/{iso_3166_alpha_3}`. */
export function countryHandlers(countries: Collection<Country & Record<string, unknown>>) {
  return {
    list: async (req: GatewayRequest) => {
      return runList({
        collection: countries,
        baseFilter: {},
        query: req.query,
        spec: COUNTRY_LIST_SPEC,
        url: req.url,
        serialize: serializeCountry,
      });
    },
    get: async (req: GatewayRequest) => {
      const selection = parseFieldParams(req.query, COUNTRY_LIST_SPEC);
      const c = await countries.findOne({ iso_3166_alpha_3: String(req.params.iso_3166_alpha_3 ?? '').toUpperCase() });
      if (!c) throw new NotFoundError();
      return applyFieldFilter(serializeCountry(c), selection.include, selection.exclude);
    },
  };
}

import { NotFoundError, Subjects, type GatewayRequest } from '@patchbay/contracts';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import { COUNTRY_LIST_SPEC } from '../domain/list-specs';
import { serializeCountry } from '../domain/serialize';
import type { RecordsContext } from './context';

/** `GET /countries` (offset pagination, filter, field filtering) and `GET /countries/{iso_3166_alpha_3}`. */
export function countryHandlers(ctx: RecordsContext) {
  const countries = ctx.repo.countries;
  return {
    [Subjects.records.countryList]: async (req: GatewayRequest) => {
      return runList({
        collection: countries,
        baseFilter: {},
        query: req.query,
        spec: COUNTRY_LIST_SPEC,
        url: req.url,
        serialize: serializeCountry,
      });
    },
    [Subjects.records.countryGet]: async (req: GatewayRequest) => {
      const selection = parseFieldParams(req.query, COUNTRY_LIST_SPEC);
      const c = await countries.findOne({ iso_3166_alpha_3: String(req.params.iso_3166_alpha_3 ?? '').toUpperCase() });
      if (!c) throw new NotFoundError();
      return applyFieldFilter(serializeCountry(c), selection.include, selection.exclude);
    },
  };
}

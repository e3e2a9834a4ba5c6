import { NotFoundError, type GatewayRequest } from '@patchbay/contracts';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import type { RecordsContext } from '../context';
import { COUNTRY_LIST_SPEC } from '../domain/list-specs';
import { serializeCountry } from '../domain/serialize';

/** `GET /countries`: offset pagination, filter, field filtering. */
export async function listCountries(ctx: Pick<RecordsContext, 'repo'>, req: GatewayRequest) {
  return runList({
    collection: ctx.repo.countries,
    baseFilter: {},
    query: req.query,
    spec: COUNTRY_LIST_SPEC,
    url: req.url,
    serialize: serializeCountry,
  });
}

/** `GET /countries/{iso_3166_alpha_3}`, in any case. */
export async function getCountry(ctx: Pick<RecordsContext, 'repo'>, req: GatewayRequest) {
  const selection = parseFieldParams(req.query, COUNTRY_LIST_SPEC);
  const c = await ctx.repo.countries.findOne({
    iso_3166_alpha_3: String(req.params.iso_3166_alpha_3 ?? '').toUpperCase(),
  });
  if (!c) throw new NotFoundError();
  return applyFieldFilter(serializeCountry(c), selection.include, selection.exclude);
}

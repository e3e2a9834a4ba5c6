import { NotFoundError, Queues, Subjects, type GatewayRequest } from '@patchbay/contracts';
import { serveAll, stopAll, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { applyFieldFilter, runList, parseFieldParams } from '@patchbay/query';
import { detailHandlers, subscribeRecordEvents } from './detail-handlers';
import { detailKinds } from './detail-kinds';
import { openRecordsRepo } from './repo';
import { COUNTRY_LIST_SPEC } from './list-specs';
import { serializeCountry } from './serialize';

/**
 * The records service: the lists the interface paginates — countries, and call and message detail
 * records (lists with after/before cursors, get by `dr_sid`, bulk ingest batches from the gateway,
 * and the durable `evt.call.completed` / `evt.message.recorded` events).
 */
export async function startRecordsService(deps: ServiceDeps): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'records' });
  const repo = await openRecordsRepo(deps.docs);
  const kinds = detailKinds(repo);
  const subs = await serveAll(deps.bus, Queues.records, {
    [Subjects.records.countryList]: async (payload) => {
      const req = payload as GatewayRequest;
      return runList({ collection: repo.countries, baseFilter: {}, query: req.query, spec: COUNTRY_LIST_SPEC, url: req.url, serialize: serializeCountry });
    },
    [Subjects.records.countryGet]: async (payload) => {
      const req = payload as GatewayRequest;
      const selection = parseFieldParams(req.query, COUNTRY_LIST_SPEC);
      const c = await repo.countries.findOne({ iso_3166_alpha_3: String(req.params.iso_3166_alpha_3 ?? '').toUpperCase() });
      if (!c) throw new NotFoundError();
      return applyFieldFilter(serializeCountry(c), selection.include, selection.exclude);
    },
    ...Object.assign({}, ...kinds.map((k) => detailHandlers(k, log))),
  }, log);
  for (const kind of kinds) subs.push(await subscribeRecordEvents(deps.bus, kind, log));
  log.info('records service ready');
  return { stop: () => stopAll(subs) };
}

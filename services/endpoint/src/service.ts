import { Queues, Subjects, type GatewayRequest } from '@patchbay/contracts';
import { backfillPartners, serveAll, stopAll, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { DEFAULT_ENDPOINT_SETTINGS, type EndpointSettings } from './config';
import { EndpointApi } from './endpoint-api';
import { EndpointLinks } from './links';
import { openEndpointRepo } from './repo';
import { ensureSystemGateway, subscribeSystemGateways } from './system-gateway';

/**
 * The endpoint service: owns the `endpoints` collection, answers `svc.endpoint.*` for the gateway,
 * and creates each partner's System Gateway on `evt.partner.created`. Asks storage
 * (`containerCheck`) and identity (`partnerLookup`) over the bus.
 */
export async function startEndpointService(deps: ServiceDeps, settings: EndpointSettings = DEFAULT_ENDPOINT_SETTINGS): Promise<Stoppable> {
  const { bus } = deps;
  const log = deps.logger.child({ mod: 'endpoint' });
  const repo = await openEndpointRepo(deps.docs);
  const links = new EndpointLinks(repo, bus, deps.logger, settings.busTimeoutMs);
  const api = new EndpointApi(repo, bus, links, settings, deps.logger);
  const req = (payload: unknown) => payload as GatewayRequest;

  const subs = await serveAll(bus, Queues.endpoint, {
    [Subjects.endpoint.create]: (p, ctx) => api.create(req(p), ctx.requestId),
    [Subjects.endpoint.list]: (p, ctx) => api.list(req(p), ctx.requestId),
    [Subjects.endpoint.get]: (p, ctx) => api.get(req(p), ctx.requestId),
    [Subjects.endpoint.update]: (p, ctx) => api.update(req(p), false, ctx.requestId),
    [Subjects.endpoint.replace]: (p, ctx) => api.update(req(p), true, ctx.requestId),
    [Subjects.endpoint.delete]: (p, ctx) => api.remove(req(p), ctx.requestId),
  }, log);
  const events = await subscribeSystemGateways(bus, repo, deps.logger);
  const backfill = backfillPartners(bus, (sid) => ensureSystemGateway(repo, sid), log);
  log.info({ hosted_api_url: settings.hostedApiUrl }, 'endpoint service ready');
  return { stop: () => { backfill.stop(); return stopAll([events, ...subs]); } };
}

import { Queues, Subjects, type GatewayRequest } from '@patchbay/contracts';
import { backfillPartners, serveAll, stopAll, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { DEFAULT_ENDPOINT_SETTINGS, type EndpointSettings } from './config';
import { EndpointApi } from './handlers/endpoints';
import { EndpointLinks } from './links';
import { openEndpointRepo } from './repo';
import { ensureSystemGateway, subscribeSystemGateways } from './system-gateway';
import { CallbackDeliverer } from './callbacks/deliverer';
import { mediaHandlers } from './handlers/media';

/**
 * The endpoint service: owns the `endpoints` collection, answers `svc.endpoint.*` for the gateway,
 * creates each partner's System Gateway on `evt.partner.created`, and delivers Voicemail callbacks
 * (callbacks/). Asks storage
 * (`containerCheck`) and identity (`partnerLookup`) over the bus.
 */
export async function startEndpointService(deps: ServiceDeps, settings: EndpointSettings = DEFAULT_ENDPOINT_SETTINGS): Promise<Stoppable> {
  const { bus } = deps;
  const log = deps.logger.child({ mod: 'endpoint' });
  const repo = await openEndpointRepo(deps.docs);
  const links = new EndpointLinks(repo, bus, deps.logger, settings.busTimeoutMs);
  const api = new EndpointApi(repo, bus, links, settings, deps.logger);
  const req = (payload: unknown) => payload as GatewayRequest;
  const deliverer = new CallbackDeliverer(repo, settings.callbacks, deps.logger, deps.metrics);

  const subs = await serveAll(bus, Queues.endpoint, {
    [Subjects.endpoint.create]: (p, ctx) => api.create(req(p), ctx.requestId),
    [Subjects.endpoint.list]: (p, ctx) => api.list(req(p), ctx.requestId),
    [Subjects.endpoint.get]: (p, ctx) => api.get(req(p), ctx.requestId),
    [Subjects.endpoint.update]: (p, ctx) => api.update(req(p), false, ctx.requestId),
    [Subjects.endpoint.replace]: (p, ctx) => api.update(req(p), true, ctx.requestId),
    [Subjects.endpoint.delete]: (p, ctx) => api.remove(req(p), ctx.requestId),
    ...mediaHandlers(repo, deliverer, deps.logger),
  }, log);
  deliverer.start();
  const events = await subscribeSystemGateways(bus, repo, deps.logger);
  const backfill = backfillPartners(bus, (sid) => ensureSystemGateway(repo, sid), log);
  log.info({ hosted_api_url: settings.hostedApiUrl }, 'endpoint service ready');
  return { stop: async () => { backfill.stop(); await stopAll([events, ...subs]); await deliverer.stop(); } };
}

import { EndpointRequests, IdentityClient, IdentityEvents, Queues, Subjects } from '@patchbay/contracts';
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_LARGE_LISTS,
  KeyRing,
  backfillPartners,
  openKeyRing,
  serveEvents,
  serveRequests,
  stopAll,
  type ServiceDeps,
  type Stoppable,
  KeptAnswers,
} from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import { CallbackDeliverer } from './callbacks/deliverer';
import { DEFAULT_ENDPOINT_SETTINGS, type EndpointSettings } from './config';
import type { EndpointContext } from './context';
import { endpointHandlers } from './handlers/endpoints';
import { mediaHandlers } from './handlers/media';
import { EndpointLinks } from './links';
import { openEndpointRepo } from './repo';
import { ENDPOINT_KEYS } from './secrets/key-settings';
import { migrateEndpointSecrets } from './secrets/migrate-secrets';
import { ensureSystemGateway, systemGatewayForNewPartner } from './system-gateway';

/**
 * The endpoint service: owns the `endpoints` collection (its secrets sealed at rest: secrets/), answers
 * `svc.endpoint.*` for the gateway,
 * creates each partner's System Gateway on `evt.partner.created`, and delivers Voicemail callbacks
 * (callbacks/). Asks storage
 * (`containerCheck`) and identity (`partnerLookup`) over the bus.
 */
export async function startEndpointService(
  deps: ServiceDeps,
  settings: EndpointSettings = DEFAULT_ENDPOINT_SETTINGS,
): Promise<Stoppable> {
  const { bus } = deps;
  const log = deps.logger.child({ mod: 'endpoint' });
  // Secrets are sealed at rest; plaintext or old-key values of earlier versions are sealed again first.
  const secretsLog = deps.logger.child({ mod: 'endpoint-secrets' });
  const ring = settings.credentialKeys
    ? openKeyRing(settings.credentialKeys, secretsLog, ENDPOINT_KEYS)
    : new KeyRing(randomBytes(32), [], 'endpoint');
  const repo = await openEndpointRepo(deps.docs, { ring, log: secretsLog });
  await migrateEndpointSecrets(deps.docs.collection('endpoints'), ring, secretsLog);
  const deliverer = new CallbackDeliverer(repo, settings.callbacks, deps.logger, deps.metrics);
  const ctx: EndpointContext = {
    repo,
    deliverer,
    settings,
    log: deps.logger,
    links: new EndpointLinks(repo, bus, deps.logger, settings.busTimeoutMs),
    identity: new IdentityClient(bus, { timeoutMs: settings.busTimeoutMs }),
    lists: new ListGate(settings.largeLists ?? DEFAULT_LARGE_LISTS),
  };
  const subs = await serveRequests(
    bus,
    Queues.endpoint,
    EndpointRequests,
    {
      ...endpointHandlers(ctx),
      ...mediaHandlers(ctx),
    },
    log,
    { answers: await KeptAnswers.open(deps.docs, log) },
  );
  deliverer.start();
  const gatewayLog = deps.logger.child({ mod: 'system-gateway' });
  const events = await serveEvents(
    bus,
    Queues.endpoint,
    IdentityEvents,
    {
      [Subjects.events.partnerCreated]: ({ partner }) =>
        systemGatewayForNewPartner(repo, partner.partner_sid, gatewayLog),
    },
    gatewayLog,
  );
  const backfill = backfillPartners(bus, (sid) => ensureSystemGateway(repo, sid), log);
  log.info({ hosted_api_url: settings.hostedApiUrl }, 'endpoint service ready');
  return {
    stop: async () => {
      backfill.stop();
      await stopAll([...events, ...subs]);
      await deliverer.stop();
    },
  };
}

import { IdentityClient, PushRequests, Queues } from '@patchbay/contracts';
import {
  DEFAULT_LARGE_LISTS,
  serveRequests,
  stopAll,
  type ServiceDeps,
  type Stoppable,
  KeptAnswers,
} from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import type { PushSettings } from './config';
import { openPushRepo } from './repo';
import { SenderPool } from './senders/sender-pool';
import { senderFactory } from './senders/sender-factory';
import type { PushContext } from './context';
import { applicationHandlers } from './handlers/applications';
import { deviceHandlers } from './handlers/devices';
import { notificationHandlers } from './handlers/notifications';
import { countPushResults } from './push-metrics';
import { openKeyRing } from '@patchbay/platform';
import { PUSH_KEYS } from './secrets/key-settings';
import { OpenedCredentials } from './secrets/opened-credentials';
import { migrateCredentials } from './secrets/migrate-credentials';
import { InlineSendRunner, type SendRunner } from './senders/send-runner';
import { WorkerSendRunner } from './senders/worker-send-runner';

/**
 * The push service: owns push applications and devices, and sends notifications through FCM and
 * APNs (HTTP/2 senders of its own) with one client per application, kept open and reused, on
 * worker threads started on the first send (senders/worker-send-runner.ts). Credentials are
 * encrypted at rest (secrets/); values stored in plaintext or under an old key are re-encrypted at
 * start, before requests are served. Stopping it stops taking requests, lets sends in flight
 * finish, then closes the clients.
 */
export async function startPushService(deps: ServiceDeps, settings: PushSettings): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'push' });
  const keys = openKeyRing(settings.credentialKeys, deps.logger.child({ mod: 'push-credentials' }), PUSH_KEYS);
  const repo = await openPushRepo(deps.docs);
  await migrateCredentials(repo.applications, keys, deps.logger.child({ mod: 'push-credentials' }));
  const runner: SendRunner =
    settings.sendWorkers > 0
      ? new WorkerSendRunner(
          settings.sendWorkers,
          settings.fcmEndpoint,
          log.child({ mod: 'push-workers' }),
          settings.clientIdleMs,
        )
      : new InlineSendRunner(settings.fcmEndpoint);
  const pool = new SenderPool(
    senderFactory(settings, deps.logger, runner),
    settings.clientIdleMs,
    deps.logger.child({ mod: 'push-clients' }),
  );
  const identity = new IdentityClient(deps.bus, { timeoutMs: settings.busTimeoutMs });
  const lists = new ListGate(settings.largeLists ?? DEFAULT_LARGE_LISTS);
  const credentials = new OpenedCredentials(keys);
  const ctx: PushContext = { repo, bus: deps.bus, log, pool, credentials, settings, keys, identity, lists };
  const subs = await serveRequests(
    deps.bus,
    Queues.push,
    PushRequests,
    {
      ...applicationHandlers(ctx),
      ...deviceHandlers(ctx),
      ...countPushResults(deps.metrics, notificationHandlers(ctx)),
    },
    log,
    { answers: await KeptAnswers.open(deps.docs, log) },
  );
  log.info(
    {
      fcm_endpoint: settings.fcmEndpoint ? `${settings.fcmEndpoint.host}:${settings.fcmEndpoint.port}` : null,
      send_workers: runner.lanes,
      apns_endpoint: settings.apns.production ?? null,
      send_deadline_ms: settings.sendDeadlineMs,
    },
    'push service ready',
  );
  return { stop: () => stopAll([...subs, { stop: () => pool.close() }, { stop: () => runner.close() }]) };
}

import { randomBytes } from 'node:crypto';
import { Queues, RecordsEvents, RecordsRequests, StorageClient, Subjects } from '@patchbay/contracts';
import {
  KeyRing,
  openKeyRing,
  serveEvents,
  serveRequests,
  stopAll,
  type ServiceDeps,
  type Stoppable,
  KeptAnswers,
} from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import type { RecordsSettings } from './config';
import { CALL_RECORDS, MESSAGE_RECORDS } from './domain/record-kinds';
import { ExportCallbacks } from './exports/export-callbacks';
import { ExportRunner } from './exports/export-runner';
import type { RecordsContext } from './context';
import { countryHandlers } from './handlers/countries';
import { callRecordHandlers, messageRecordHandlers } from './handlers/detail-records';
import { callExportHandlers, messageExportHandlers } from './handlers/exports';
import { usageHandlers } from './handlers/usage';
import { storeEventRecord } from './operations/record-events';
import { openRecordsRepo } from './repo';
import { RECORDS_KEYS } from './secrets/key-settings';
import { migrateCallbackKeys } from './secrets/migrate-callback-keys';
import { UsageRoller } from './usage-roller';

/**
 * The records service: the lists the interface paginates — countries, and call and message detail
 * records (lists with after/before cursors, get by `dr_sid`, bulk ingest batches from the gateway,
 * and the durable `evt.call.completed` / `evt.message.recorded` events) — and bulk exports of
 * records into files (exports/: a job kept in the store, and its completion callbacks, whose signing
 * keys are sealed at rest: secrets/). The subject table; the handlers are in handlers/, the work in operations/,
 * the rules in domain/.
 */
export async function startRecordsService(deps: ServiceDeps, settings: RecordsSettings): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'records' });
  const repo = await openRecordsRepo(deps.docs);
  // Exports' callback signing keys are sealed at rest; plain or old-key ones of earlier versions are sealed again
  // first.
  const secretsLog = deps.logger.child({ mod: 'records-secrets' });
  const ring = settings.credentialKeys
    ? openKeyRing(settings.credentialKeys, secretsLog, RECORDS_KEYS)
    : new KeyRing(randomBytes(32), [], RECORDS_KEYS.purpose);
  await migrateCallbackKeys(repo.exports, ring, secretsLog);
  const callbacks = new ExportCallbacks(
    repo,
    ring,
    settings.exports.callbacks,
    deps.logger.child({ mod: 'export-callbacks' }),
  );
  const runner = new ExportRunner({
    repo,
    bus: deps.bus,
    blobs: deps.blobs,
    log: deps.logger.child({ mod: 'record-exports' }),
    settings: settings.exports,
    ended: () => callbacks.kick(),
  });
  const ctx: RecordsContext = {
    repo,
    log,
    settings,
    lists: new ListGate(settings.largeLists),
    exports: {
      storage: new StorageClient(deps.bus, { timeoutMs: settings.exports.busTimeoutMs }),
      settings: settings.exports,
      ring,
      queued: () => runner.kick(),
    },
  };
  const subs = await serveRequests(
    deps.bus,
    Queues.records,
    RecordsRequests,
    {
      ...countryHandlers(ctx),
      ...callRecordHandlers(ctx),
      ...messageRecordHandlers(ctx),
      ...callExportHandlers(ctx),
      ...messageExportHandlers(ctx),
      ...usageHandlers(ctx),
    },
    log,
    { answers: await KeptAnswers.open(deps.docs, log) },
  );
  subs.push(
    ...(await serveEvents(
      deps.bus,
      Queues.records,
      RecordsEvents,
      {
        [Subjects.events.callCompleted]: (event) => storeEventRecord(ctx, CALL_RECORDS, event),
        [Subjects.events.messageRecorded]: (event) => storeEventRecord(ctx, MESSAGE_RECORDS, event),
      },
      log,
    )),
  );
  const roller = new UsageRoller(repo, deps.logger.child({ mod: 'usage-rollups' }));
  runner.start();
  callbacks.start();
  roller.start();
  log.info('records service ready');
  return {
    stop: async () => {
      await stopAll(subs);
      await runner.stop();
      await callbacks.stop();
      await roller.stop();
    },
  };
}

import { Queues, RecordEventSchema, RecordsRequests, Subjects } from '@patchbay/contracts';
import { checkedEvent, serveRequests, stopAll, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import type { RecordsSettings } from './config';
import { CALL_RECORDS, MESSAGE_RECORDS } from './domain/record-kinds';
import type { RecordsContext } from './handlers/context';
import { countryHandlers } from './handlers/countries';
import { callRecordHandlers, messageRecordHandlers } from './handlers/detail-records';
import { recordEventHandler } from './handlers/record-events';
import { openRecordsRepo } from './repo';

/**
 * The records service: the lists the interface paginates — countries, and call and message detail
 * records (lists with after/before cursors, get by `dr_sid`, bulk ingest batches from the gateway,
 * and the durable `evt.call.completed` / `evt.message.recorded` events). The subject table; the
 * handlers are in handlers/, the rules in domain/.
 */
export async function startRecordsService(deps: ServiceDeps, settings: RecordsSettings): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'records' });
  const repo = await openRecordsRepo(deps.docs);
  const ctx: RecordsContext = { repo, log, settings, lists: new ListGate(settings.largeLists) };
  const subs = await serveRequests(
    deps.bus,
    Queues.records,
    RecordsRequests,
    {
      ...countryHandlers(ctx),
      ...callRecordHandlers(ctx),
      ...messageRecordHandlers(ctx),
    },
    log,
  );
  for (const [subject, kind, records] of [
    [Subjects.events.callCompleted, CALL_RECORDS, repo.callDrs],
    [Subjects.events.messageRecorded, MESSAGE_RECORDS, repo.messageDrs],
  ] as const) {
    subs.push(
      await deps.bus.subscribe(
        subject,
        Queues.records,
        checkedEvent(subject, RecordEventSchema, log, recordEventHandler(kind, records, log)),
      ),
    );
  }
  log.info('records service ready');
  return { stop: () => stopAll(subs) };
}

import { Queues, RecordEventSchema, RecordsRequests, Subjects } from '@patchbay/contracts';
import { checkedEvent, serveRequests, stopAll, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import type { RecordsSettings } from './config';
import { CALL_RECORDS, MESSAGE_RECORDS } from './domain/record-kinds';
import { countryHandlers } from './handlers/countries';
import { detailRecordHandlers } from './handlers/detail-records';
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
  const countries = countryHandlers(repo.countries);
  const calls = detailRecordHandlers(CALL_RECORDS, repo.callDrs, log, settings.cdrDefaultLimit);
  const messages = detailRecordHandlers(MESSAGE_RECORDS, repo.messageDrs, log, settings.cdrDefaultLimit);
  const subs = await serveRequests(
    deps.bus,
    Queues.records,
    RecordsRequests,
    {
      [Subjects.records.countryList]: countries.list,
      [Subjects.records.countryGet]: countries.get,
      [Subjects.records.callList]: calls.list,
      [Subjects.records.callGet]: calls.get,
      [Subjects.records.callIngest]: calls.ingest,
      [Subjects.records.messageList]: messages.list,
      [Subjects.records.messageGet]: messages.get,
      [Subjects.records.messageIngest]: messages.ingest,
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

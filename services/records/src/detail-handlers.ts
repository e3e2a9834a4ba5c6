import {
  BadRequestError, INGEST_BATCH_RECORDS, NotFoundError,
  type GatewayRequest, type RecordIngestBatch,
} from '@patchbay/contracts';
import type { Bus, Logger, RouteHandlers, Subscription } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import { ownerOf, RecordRuleError } from './domain/record-docs';
import type { DetailKind } from './detail-kinds';
import { ingestRecords } from './ingest';

const SECURE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Request handlers of one kind of detail record: the list (after/before cursors, filter, field
 * filtering, `total` null), one record by `dr_sid`, and a bulk-ingest batch. A partner sees and
 * ingests only its own records.
 */
export function detailHandlers(kind: DetailKind, log: Logger): RouteHandlers {
  return {
    [kind.subjects.list]: async (payload) => {
      const req = payload as GatewayRequest;
      return runList({
        collection: kind.collection, baseFilter: { partner_sid: req.principal.partner_sid },
        query: req.query, spec: kind.spec, url: req.url, serialize: kind.serialize,
      });
    },
    [kind.subjects.get]: async (payload) => {
      const req = payload as GatewayRequest;
      const selection = parseFieldParams(req.query, kind.spec);
      const sid = String(req.params.dr_sid ?? '');
      const doc = SECURE_ID.test(sid) ? await kind.collection.findOne({ dr_sid: sid.toLowerCase(), partner_sid: req.principal.partner_sid }) : null;
      if (!doc) throw new NotFoundError();
      return applyFieldFilter(kind.serialize(doc), selection.include, selection.exclude);
    },
    [kind.subjects.ingest]: async (payload) => {
      const batch = payload as RecordIngestBatch;
      if (!Array.isArray(batch?.records) || batch.records.length > 2 * INGEST_BATCH_RECORDS || !Number.isSafeInteger(batch.first_position)) {
        throw new BadRequestError('invalid ingest batch');
      }
      const caller = batch.principal.partner_sid;
      const items = batch.records.map((raw, i) => ({ position: batch.first_position + i, raw }));
      const result = await ingestRecords(kind, items, (given) => ownerOf(given, caller));
      log.debug({ kind: kind.name, partner_sid: caller, first_position: batch.first_position, stored: result.stored, duplicates: result.duplicates, rejected: result.errors.length }, 'ingest batch');
      return result;
    },
  };
}

/**
 * Consumes the kind's durable event (`{record}`): the record names its partner. Idempotent by
 * `dr_sid`, so a redelivered event is a no-op. A record that can never be stored is logged and
 * dropped (throwing would only redeliver it forever); a store failure throws, so it comes back.
 */
export function subscribeRecordEvents(bus: Bus, kind: DetailKind, log: Logger): Promise<Subscription> {
  return bus.subscribe(kind.subjects.event, 'records', async (payload) => {
    const raw = (payload as { record?: unknown } | null)?.record;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      log.warn({ kind: kind.name }, 'event without a record object dropped');
      return;
    }
    const owner = (given: string | undefined): string => {
      if (given === undefined) throw new RecordRuleError('partner_sid', 'an event record must carry its partner_sid');
      return given.toLowerCase();
    };
    const result = await ingestRecords(kind, [{ position: 0, raw }], owner);
    if (result.errors.length > 0) log.warn({ kind: kind.name, dr_sid: result.errors[0].dr_sid, errors: result.errors }, 'event record refused');
    else log.debug({ kind: kind.name, stored: result.stored, duplicates: result.duplicates }, 'event record');
  });
}

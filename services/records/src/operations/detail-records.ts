import {
  NotFoundError,
  Subjects,
  ignoredFieldsObject,
  tallyIgnoredFields,
  type GatewayRequest,
  type RecordIngestBatch,
  type RecordIngestBatchResult,
} from '@patchbay/contracts';
import type { Collection, HandlerContext, Logger } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, requestedLimit, runList, type ListGate } from '@patchbay/query';
import { planIngest, type IngestItem } from '../domain/ingest-plan';
import { ownerOf, type RecordDoc } from '../domain/record-docs';
import { CALL_RECORDS, MESSAGE_RECORDS, type RecordKind } from '../domain/record-kinds';
import { serializeRecord } from '../domain/serialize';
import { storeNewRecords, type RecordsRepo } from '../repo';
import { touchUsage } from '../usage/usage-rollups';
import type { RecordsContext } from './context';

/** What the detail-record handlers use of the service's context. */
export type DetailRecordsContext = Pick<RecordsContext, 'repo' | 'log' | 'lists'> & {
  settings: Pick<RecordsContext['settings'], 'cdrDefaultLimit' | 'largeLists'>;
};

const SECURE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Validates, stores and reports a batch of one kind: the caller-facing part of ingest, shared by
 * the bulk-ingest handler and the record events.
 */
export async function ingestItems(
  kind: RecordKind,
  records: Collection<RecordDoc>,
  items: readonly IngestItem[],
  owner: (given: string | null | undefined) => string,
  /** Marks the usage days the records fall on (usage/usage-rollups.ts), before they are stored. */
  touched: (docs: readonly RecordDoc[]) => Promise<void>,
): Promise<RecordIngestBatchResult> {
  const plan = planIngest(kind, items, owner, new Date());
  if (plan.docs.length > 0) await touched(plan.docs);
  const { stored, duplicates } =
    plan.docs.length > 0 ? await storeNewRecords(records, plan.docs) : { stored: 0, duplicates: 0 };
  const tally = new Map<string, number>();
  tallyIgnoredFields(tally, plan.ignored);
  plan.errors.sort((a, b) => a.position - b.position);
  return {
    stored,
    duplicates: plan.duplicates + duplicates,
    errors: plan.errors,
    ignored_fields: ignoredFieldsObject(tally),
  };
}

/** `GET /calls/call_drs`, `GET /calls/call_drs/{dr_sid}` and the bulk ingest of call records. */
export function callRecordHandlers(ctx: DetailRecordsContext) {
  const calls = kindHandlers(CALL_RECORDS, ctx.repo, ctx.log, ctx.settings.cdrDefaultLimit, ctx.lists);
  return {
    [Subjects.records.callList]: calls.list,
    [Subjects.records.callGet]: calls.get,
    [Subjects.records.callIngest]: calls.ingest,
  };
}

/** `GET /sms/message_drs`, `GET /sms/message_drs/{dr_sid}` and the bulk ingest of message records. */
export function messageRecordHandlers(ctx: DetailRecordsContext) {
  const messages = kindHandlers(MESSAGE_RECORDS, ctx.repo, ctx.log, ctx.settings.cdrDefaultLimit, ctx.lists);
  return {
    [Subjects.records.messageList]: messages.list,
    [Subjects.records.messageGet]: messages.get,
    [Subjects.records.messageIngest]: messages.ingest,
  };
}

/**
 * The handlers of one kind of detail record, the same for both kinds: the list (after/before
 * cursors, filter, field filtering, `total` null), one record by `dr_sid`, and a bulk-ingest batch.
 * Every one is scoped to the caller: a partner sees, pages from and ingests only its own records,
 * and another partner's `dr_sid` is to it exactly what an unknown one is. Large pages go through
 * `lists` (a partner's share and the service's total, 429/503 past them).
 */
function kindHandlers(
  kind: RecordKind,
  repo: RecordsRepo,
  log: Logger,
  /** CDR_DEFAULT_LIMIT: the list's `limit` when the request gives none. */
  defaultLimit: number,
  lists: ListGate,
) {
  const serialize = (doc: RecordDoc) => serializeRecord(kind.fields, doc);
  const records = kind.name === 'call_drs' ? repo.callDrs : repo.messageDrs;
  const touched = (docs: readonly RecordDoc[]) => touchUsage(repo.usage, kind.name, docs);
  return {
    list: async (req: GatewayRequest, mc?: HandlerContext) => {
      const partner = req.principal.partner_sid;
      return lists.run(partner, requestedLimit(req.query, defaultLimit), mc?.replied, () =>
        runList({
          collection: records,
          baseFilter: { partner_sid: partner },
          query: req.query,
          spec: kind.spec,
          url: req.url,
          serialize,
          defaultLimit,
        }),
      );
    },
    get: async (req: GatewayRequest) => {
      const selection = parseFieldParams(req.query, kind.spec);
      const sid = String(req.params.dr_sid ?? '');
      const doc = SECURE_ID.test(sid)
        ? await records.findOne({ partner_sid: req.principal.partner_sid, dr_sid: sid.toLowerCase() })
        : null;
      if (!doc) throw new NotFoundError();
      return applyFieldFilter(serialize(doc), selection.include, selection.exclude);
    },
    ingest: async (batch: RecordIngestBatch) => {
      const caller = batch.principal.partner_sid;
      const items = batch.records.map((raw, i) => ({ position: batch.first_position + i, raw }));
      const result = await ingestItems(kind, records, items, (given) => ownerOf(given, caller), touched);
      log.debug(
        {
          kind: kind.name,
          partner_sid: caller,
          first_position: batch.first_position,
          stored: result.stored,
          duplicates: result.duplicates,
          rejected: result.errors.length,
          ignored_fields: result.ignored_fields,
        },
        'ingest batch',
      );
      return result;
    },
  };
}

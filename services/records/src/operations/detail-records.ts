import {
  NotFoundError,
  ignoredFieldsObject,
  tallyIgnoredFields,
  type GatewayRequest,
  type RecordIngestBatch,
  type RecordIngestBatchResult,
} from '@patchbay/contracts';
import type { Collection, HandlerContext } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, requestedLimit, runList } from '@patchbay/query';
import { planIngest, type IngestItem } from '../domain/ingest-plan';
import { ownerOf, type RecordDoc } from '../domain/record-docs';
import type { RecordKind } from '../domain/record-kinds';
import { serializeRecord } from '../domain/serialize';
import { storeNewRecords, type RecordsRepo } from '../repo';
import { touchUsage } from '../usage/usage-rollups';
import type { RecordsContext } from '../context';

/** What the detail-record operations use of the service's context. */
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

/** A kind's collection of records. */
export function recordsOf(repo: RecordsRepo, kind: RecordKind): Collection<RecordDoc> {
  return kind.name === 'call_drs' ? repo.callDrs : repo.messageDrs;
}

/** Marks the usage days of a kind's records (usage/usage-rollups.ts), before they are stored. */
export function usageToucher(repo: RecordsRepo, kind: RecordKind) {
  return (docs: readonly RecordDoc[]) => touchUsage(repo.usage, kind.name, docs);
}

/**
 * A page of the caller's records of one kind (the same for both kinds, as are getRecord and ingestBatch): after/before
 * cursors, filter, field filtering, `total` null. Each of the three is scoped to the caller: a partner sees, pages
 * from and ingests only its own records, and another partner's `dr_sid` is to it exactly what an unknown one is.
 * Large pages go through `lists` (a partner's share and the service's total, 429/503 past them); `limit` is
 * CDR_DEFAULT_LIMIT when the request gives none.
 */
export async function listRecords(
  ctx: DetailRecordsContext,
  kind: RecordKind,
  req: GatewayRequest,
  mc?: HandlerContext,
) {
  const partner = req.principal.partner_sid;
  const defaultLimit = ctx.settings.cdrDefaultLimit;
  return ctx.lists.run(partner, requestedLimit(req.query, defaultLimit), mc?.replied, () =>
    runList({
      collection: recordsOf(ctx.repo, kind),
      baseFilter: { partner_sid: partner },
      query: req.query,
      spec: kind.spec,
      url: req.url,
      serialize: (doc: RecordDoc) => serializeRecord(kind.fields, doc),
      defaultLimit,
    }),
  );
}

/** One of the caller's records by `dr_sid`, or 404. */
export async function getRecord(ctx: Pick<DetailRecordsContext, 'repo'>, kind: RecordKind, req: GatewayRequest) {
  const selection = parseFieldParams(req.query, kind.spec);
  const sid = String(req.params.dr_sid ?? '');
  const doc = SECURE_ID.test(sid)
    ? await recordsOf(ctx.repo, kind).findOne({ partner_sid: req.principal.partner_sid, dr_sid: sid.toLowerCase() })
    : null;
  if (!doc) throw new NotFoundError();
  return applyFieldFilter(serializeRecord(kind.fields, doc), selection.include, selection.exclude);
}

/** A bulk-ingest batch of the caller's records (a record naming another partner is refused). */
export async function ingestBatch(
  ctx: Pick<DetailRecordsContext, 'repo' | 'log'>,
  kind: RecordKind,
  batch: RecordIngestBatch,
): Promise<RecordIngestBatchResult> {
  const caller = batch.principal.partner_sid;
  const items = batch.records.map((raw, i) => ({ position: batch.first_position + i, raw }));
  const result = await ingestItems(
    kind,
    recordsOf(ctx.repo, kind),
    items,
    (given) => ownerOf(given, caller),
    usageToucher(ctx.repo, kind),
  );
  ctx.log.debug(
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
}

import { UnavailableError, type GatewayRequest } from '@patchbay/contracts';
import type { Collection } from '@patchbay/platform';
import { andFilters } from '@patchbay/query';
import type { RecordDoc } from '../domain/record-docs';
import { MAX_USAGE_ITEMS, usageAnswer } from '../domain/usage-items';
import type { UsageKind } from '../domain/usage-kinds';
import { parseUsageRequest } from '../domain/usage-request';
import { rollupRows } from '../usage/rollup-answer';
import type { KindName } from '../usage/usage-rollups';
import type { RecordsContext } from '../context';

/**
 * `GET /calls/call_drs/usage` and `GET /sms/message_drs/usage` (docs/interface-notes.md, "Usage"): the
 * caller's records only, totalled by the store (`bucketTotals`), never read into the service: from the hourly
 * rollups where they may answer (usage/rollup-answer.ts), else from the records.
 */
export async function recordUsage(
  ctx: Pick<RecordsContext, 'repo'>,
  name: KindName,
  kind: UsageKind,
  req: GatewayRequest,
) {
  const repo = ctx.repo;
  const records: Collection<RecordDoc> = name === 'call_drs' ? repo.callDrs : repo.messageDrs;
  const request = parseUsageRequest(req.query, kind, new Date());
  const partner = req.principal.partner_sid;
  const rolled = await rollupRows(repo.usage, name, kind, records, partner, request, MAX_USAGE_ITEMS + 1);
  if (rolled) return usageAnswer(kind, request, rolled);
  if (!records.bucketTotals) throw new UnavailableError({ message: 'this document store cannot total records' });
  const rows = await records.bucketTotals(andFilters({ partner_sid: partner }, request.filter), {
    dateField: kind.dateField,
    unit: request.unit,
    timeZone: request.timeZone,
    from: request.from,
    to: request.to,
    ...(request.by !== undefined && { by: request.by }),
    measures: kind.measures,
    maxRows: MAX_USAGE_ITEMS + 1,
  });
  return usageAnswer(kind, request, rows);
}

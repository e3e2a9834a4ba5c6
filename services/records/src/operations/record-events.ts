import type { RecordEvent } from '@patchbay/contracts';
import type { RecordsContext } from '../context';
import { RecordRuleError } from '../domain/record-docs';
import type { RecordKind } from '../domain/record-kinds';
import { ingestItems, recordsOf, usageToucher } from './detail-records';

/** The partner an event's record names: it must name one. */
function owner(given: string | null | undefined): string {
  if (given == null) throw new RecordRuleError('partner_sid', 'an event record must carry its partner_sid');
  return given.toLowerCase();
}

/**
 * Stores the record of a kind's durable event (`{record}`, checked against RecordEventSchema where it is
 * received), whose record names its partner. Idempotent by
 * (partner_sid, dr_sid), so a redelivered event is a no-op. Unknown fields are dropped, as on
 * ingest. A record that can never be stored is logged and dropped (throwing would only redeliver
 * it forever); a store failure throws, so it comes back. Its usage day is marked before it is stored.
 */
export async function storeEventRecord(
  ctx: Pick<RecordsContext, 'repo' | 'log'>,
  kind: RecordKind,
  { record }: RecordEvent,
): Promise<void> {
  const log = ctx.log;
  const result = await ingestItems(
    kind,
    recordsOf(ctx.repo, kind),
    [{ position: 0, raw: record }],
    owner,
    usageToucher(ctx.repo, kind),
  );
  if (result.errors.length > 0)
    log.warn({ kind: kind.name, dr_sid: result.errors[0].dr_sid, errors: result.errors }, 'event record refused');
  else
    log.debug(
      {
        kind: kind.name,
        stored: result.stored,
        duplicates: result.duplicates,
        ignored_fields: result.ignored_fields,
      },
      'event record',
    );
}

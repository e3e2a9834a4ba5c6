import type { RecordEvent } from '@patchbay/contracts';
import type { Collection, Logger } from '@patchbay/platform';
import { RecordRuleError, type RecordDoc } from '../domain/record-docs';
import type { RecordKind } from '../domain/record-kinds';
import { ingestItems } from './detail-records';

/**
 * Consumer of a kind's durable event (`{record}`, checked against RecordEventSchema where it is
 * received), whose record names its partner. Idempotent by
 * (partner_sid, dr_sid), so a redelivered event is a no-op. Unknown fields are dropped, as on
 * ingest. A record that can never be stored is logged and dropped (throwing would only redeliver
 * it forever); a store failure throws, so it comes back.
 */
export function recordEventHandler(
  kind: RecordKind,
  records: Collection<RecordDoc>,
  log: Logger,
  /** Marks the record's usage day (usage/usage-rollups.ts) before it is stored. */
  touched: (docs: readonly RecordDoc[]) => Promise<void>,
) {
  const owner = (given: string | null | undefined): string => {
    if (given == null) throw new RecordRuleError('partner_sid', 'an event record must carry its partner_sid');
    return given.toLowerCase();
  };
  return async ({ record }: RecordEvent): Promise<void> => {
    const result = await ingestItems(kind, records, [{ position: 0, raw: record }], owner, touched);
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
  };
}

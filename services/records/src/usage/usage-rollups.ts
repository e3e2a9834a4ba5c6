/**
 * Usage rollups (decisions §57): each partner's usage totals per UTC hour, kept beside the records
 * so that a usage answer over months reads a few thousand hourly rows instead of millions of records.
 *
 * They are derived data, rebuilt rather than incremented, so no crash or replay can make them drift: a
 * store of records first marks the (partner, UTC day) of each record dirty, with a fresh token; the roller
 * (../usage-roller.ts) recomputes a dirty day's hours from its records (`bucketTotals` by hour) and removes
 * the mark only if its token is still the one it read. A usage answer reads the rollups of clean days and
 * the records of dirty ones (rollup-answer.ts), so it is exact whether or not the roller has caught up.
 * Records stored before rollups existed are marked once, at the first start (`backfillUsage`).
 */
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError } from '@patchbay/contracts';
import type { Collection, DocStore, Filter } from '@patchbay/platform';
import type { RecordDoc } from '../domain/record-docs';
import type { RecordKind } from '../domain/record-kinds';
import { CALL_USAGE, MESSAGE_USAGE, type UsageKind } from '../domain/usage-kinds';

export type KindName = RecordKind['name'];
export const USAGE_KINDS: Readonly<Record<KindName, UsageKind>> = { call_drs: CALL_USAGE, message_drs: MESSAGE_USAGE };
const DAY = 86_400_000;

/** One partner's totals of one UTC hour (the kind's measures, by name), and the UTC day it is in. */
export interface UsageHourDoc extends Record<string, unknown> {
  partner_sid: string;
  hour: Date;
  day: string;
}

/** A (partner, UTC day) whose records changed since its hours were computed. */
export interface UsageDirtyDoc extends Record<string, unknown> {
  kind: KindName;
  partner_sid: string;
  day: string;
  /** New at every mark: the roller clears only the mark it read. */
  token: string;
}

/** Whether the records stored before rollups existed have been marked (once per kind). */
export interface UsageStateDoc extends Record<string, unknown> {
  kind: KindName;
  backfilled: boolean;
}

export interface UsageRollupRepo {
  hours: Readonly<Record<KindName, Collection<UsageHourDoc>>>;
  dirty: Collection<UsageDirtyDoc>;
  state: Collection<UsageStateDoc>;
}

export async function openUsageRollups(docs: DocStore): Promise<UsageRollupRepo> {
  const hours = {
    call_drs: docs.collection<UsageHourDoc>('call_usage_hours'),
    message_drs: docs.collection<UsageHourDoc>('message_usage_hours'),
  };
  for (const c of Object.values(hours)) {
    await c.createIndex({ partner_sid: 1, hour: 1 }, { unique: true });
    await c.createIndex({ partner_sid: 1, day: 1 });
  }
  const dirty = docs.collection<UsageDirtyDoc>('usage_dirty_days');
  await dirty.createIndex({ kind: 1, partner_sid: 1, day: 1 }, { unique: true });
  await dirty.createIndex({ day: 1 });
  const state = docs.collection<UsageStateDoc>('usage_rollup_state');
  await state.createIndex({ kind: 1 }, { unique: true });
  return { hours, dirty, state };
}

const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

/** Upserts `$set` on the one document `key` names (a concurrent insert of it: then an update). */
async function upsert<T extends Record<string, unknown>>(
  c: Collection<T>,
  key: Filter<T>,
  values: Record<string, unknown>,
): Promise<void> {
  try {
    await c.findOneAndUpdate(key, { $set: values }, { upsert: true });
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    await c.updateOne(key, { $set: values });
  }
}

/** Marks the (partner, UTC day) of each record dirty: before the records are stored, so no crash loses one. */
export async function touchUsage(usage: UsageRollupRepo, kind: KindName, docs: readonly RecordDoc[]): Promise<void> {
  const field = USAGE_KINDS[kind].dateField;
  const days = new Set<string>();
  for (const doc of docs) {
    const at = doc[field];
    if (at instanceof Date) days.add(`${doc.partner_sid} ${dayOf(at)}`);
  }
  for (const pair of days) {
    const [partner_sid, day] = pair.split(' ');
    await upsert(usage.dirty, { kind, partner_sid, day }, { token: randomUUID() });
  }
}

/** Recomputes the hours of a dirty day from its records, then clears the mark unless it was renewed meanwhile. */
export async function recomputeDay(
  usage: UsageRollupRepo,
  records: Collection<RecordDoc>,
  mark: UsageDirtyDoc,
): Promise<void> {
  const kind = USAGE_KINDS[mark.kind];
  const from = new Date(`${mark.day}T00:00:00Z`);
  const to = new Date(from.getTime() + DAY);
  if (!records.bucketTotals) throw new Error('the document store cannot total records');
  const rows = await records.bucketTotals(
    { partner_sid: mark.partner_sid, [kind.dateField]: { $gte: from, $lt: to } },
    { dateField: kind.dateField, unit: 'hour', timeZone: 'UTC', from, to, measures: kind.measures, maxRows: 25 },
  );
  const hours = usage.hours[mark.kind];
  // Records are never deleted, so an hour that had records still has them: every hour is written, none removed.
  for (const row of rows)
    await upsert(hours, { partner_sid: mark.partner_sid, hour: row.start }, { day: mark.day, ...row.values });
  await usage.dirty.deleteOne({ kind: mark.kind, partner_sid: mark.partner_sid, day: mark.day, token: mark.token });
}

/** Whether the records of `kind` stored before the rollups have been marked (backfillUsage ran to its end). */
export async function usageBackfilled(usage: UsageRollupRepo, kind: KindName): Promise<boolean> {
  return (await usage.state.findOne({ kind }))?.backfilled === true;
}

/**
 * Marks every (partner, UTC day) that holds records of `kind`, once: walks the partners by the
 * (partner_sid, dr_sid) index, and each partner's days by one `bucketTotals` between its first and last
 * record. Then records that the rollups may answer for this kind.
 */
export async function backfillUsage(
  usage: UsageRollupRepo,
  kind: KindName,
  records: Collection<RecordDoc>,
): Promise<void> {
  if (await usageBackfilled(usage, kind)) return;
  const field = USAGE_KINDS[kind].dateField;
  let after = '';
  for (;;) {
    const next = await records.findOne({ partner_sid: { $gt: after } }, { sort: { partner_sid: 1 } });
    if (!next || !records.bucketTotals) break;
    const partner = next.partner_sid;
    after = partner;
    const first = await records.findOne({ partner_sid: partner }, { sort: { partner_sid: 1, [field]: 1 } });
    const last = await records.findOne({ partner_sid: partner }, { sort: { partner_sid: 1, [field]: -1 } });
    const [a, b] = [first?.[field], last?.[field]];
    if (!(a instanceof Date) || !(b instanceof Date)) continue;
    const days = await records.bucketTotals(
      { partner_sid: partner },
      {
        dateField: field,
        unit: 'day',
        timeZone: 'UTC',
        from: a,
        to: new Date(b.getTime() + 1),
        measures: { n: { count: true } },
        maxRows: 1_000_000,
      },
    );
    for (const d of days)
      await upsert(usage.dirty, { kind, partner_sid: partner, day: dayOf(d.start) }, { token: randomUUID() });
  }
  await upsert(usage.state, { kind }, { backfilled: true });
}

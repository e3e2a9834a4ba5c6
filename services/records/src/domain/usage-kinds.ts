/**
 * What usage adds up for each kind of detail record (docs/interface-notes.md, "Usage"): the date that
 * places a record in its bucket, the store totals, the second keys `group_by` may name, and how one
 * bucket's totals become an API item. Plain data and functions, no I/O.
 */
import { CALL_USAGE_KEYS, MESSAGE_USAGE_KEYS } from '@patchbay/contracts';
import type { BucketMeasure } from '@patchbay/platform';
import type { ListSpec } from '@patchbay/query';
import { CALL_RECORDS, MESSAGE_RECORDS } from './record-kinds';

export interface UsageKind {
  /** The list spec: the filter grammar and its fields. */
  readonly spec: ListSpec;
  /** The record date that places a record in a bucket, and sets the range in `filter`. */
  readonly dateField: string;
  readonly keys: readonly string[];
  readonly measures: Readonly<Record<string, BucketMeasure>>;
  /** One item's numbers from its bucket's totals (all zero for an empty bucket). */
  item(totals: Readonly<Record<string, number>>): Record<string, number>;
}

const round = (n: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
};

/**
 * Calls, by `date_stop` (the list's order, and the records' index): `answered` are the calls whose
 * `sipcause` is 200; minutes and ACD come from `duration_billing` (already rounded by the billing
 * increment, so it is summed as it is and only the total turned into minutes).
 */
export const CALL_USAGE: UsageKind = {
  spec: CALL_RECORDS.spec,
  dateField: 'date_stop',
  keys: CALL_USAGE_KEYS,
  measures: {
    calls: { count: true },
    answered: { count: true, where: { path: 'sipcause', value: '200' } },
    seconds: { sum: 'numeric.duration_billing' },
    answeredSeconds: { sum: 'numeric.duration_billing', where: { path: 'sipcause', value: '200' } },
    cost: { sum: 'numeric.price' },
  },
  item: (t) => ({
    calls: t.calls,
    answered: t.answered,
    minutes: round(t.seconds / 60, 2),
    cost: round(t.cost, 6),
    asr: t.calls > 0 ? round(t.answered / t.calls, 4) : 0,
    acd: t.answered > 0 ? round(t.answeredSeconds / 60 / t.answered, 2) : 0,
  }),
};

/** Messages, by `date_insert` (the list's order). */
export const MESSAGE_USAGE: UsageKind = {
  spec: MESSAGE_RECORDS.spec,
  dateField: 'date_insert',
  keys: MESSAGE_USAGE_KEYS,
  measures: {
    messages: { count: true },
    segments: { sum: 'message_segments' },
    cost: { sum: 'numeric.price' },
  },
  item: (t) => ({ messages: t.messages, segments: t.segments, cost: round(t.cost, 6) }),
};

/**
 * The two kinds of detail record: what the handlers need of each, all derived from the kind's
 * schema in contracts, plus the few rules a schema cannot say. Validators are compiled once, here,
 * at module load.
 */
import {
  CallRecordInputSchema,
  CallRecordSchema,
  MessageRecordInputSchema,
  MessageRecordSchema,
  compileValidator,
  type Validator,
} from '@patchbay/contracts';
import type { ListSpec } from '@patchbay/query';
import { decimal, RecordRuleError, secondsBetween, toRecordDoc, type RecordDoc } from './record-docs';
import { recordFields, type RecordFields } from './record-fields';
import { recordListSpec } from './list-specs';

export interface RecordKind {
  /** For logs. */
  readonly name: 'call_drs' | 'message_drs';
  readonly fields: RecordFields;
  /** Checks one input record whose unknown fields were already dropped; throws a 400 naming each bad field. */
  readonly validate: Validator<Record<string, unknown>>;
  readonly spec: ListSpec;
  /** The kind's rules and derived defaults on a freshly converted record; throws RecordRuleError. */
  readonly complete: (doc: RecordDoc) => void;
  /** Plain-language messages for a field whose pattern or type was not met, beyond its kind's. */
  readonly hints: Readonly<Record<string, string>>;
}

const date = (doc: RecordDoc, field: string): Date | null => {
  const value = doc[field];
  return value instanceof Date ? value : null;
};

/**
 * Calls: `date_stop` must not precede `date_start`; `date_talk`, when set, lies between them;
 * `duration` defaults to stop − start.
 */
function completeCall(doc: RecordDoc): void {
  const start = date(doc, 'date_start');
  const stop = date(doc, 'date_stop');
  if (!start || !stop) throw new Error('call record without date_start/date_stop passed validation');
  if (stop < start) throw new RecordRuleError('date_stop', 'date_stop must not precede date_start');
  const talk = date(doc, 'date_talk');
  if (talk && (talk < start || talk > stop))
    throw new RecordRuleError('date_talk', 'date_talk must lie between date_start and date_stop');
  if (doc.duration === undefined) {
    doc.duration = secondsBetween(start, stop);
    doc.numeric.duration = decimal(doc.duration);
  }
}

const callFields = recordFields(CallRecordSchema);
/** `GET /calls/call_drs`: after/before ordered by `date_stop` only. */
export const CALL_RECORDS: RecordKind = {
  name: 'call_drs',
  fields: callFields,
  validate: compileValidator(CallRecordInputSchema),
  spec: recordListSpec(callFields, ['date_stop'], { field: 'date_stop', dir: 'asc' }),
  complete: completeCall,
  hints: { sipcause: 'must be a SIP status code as a string such as "200"' },
};

/**
 * Messages carry no cross-field rule: `date_stop` may even precede `date_start` (the compatible
 * API's own published sample does, its `date_stop` being truncated to the minute), and refusing
 * that would refuse real exports.
 */
const messageFields = recordFields(MessageRecordSchema);
/**
 * `GET /sms/message_drs`: after/before ordered by `date_insert` (the documented order) or
 * `date_stop` (what the publisher's own downloader sends); records without `date_stop` come first.
 */
export const MESSAGE_RECORDS: RecordKind = {
  name: 'message_drs',
  fields: messageFields,
  validate: compileValidator(MessageRecordInputSchema),
  spec: recordListSpec(messageFields, ['date_insert', 'date_stop'], { field: 'date_insert', dir: 'asc' }),
  complete: () => undefined,
  hints: {},
};

/**
 * A validated input record of `kind` as stored, owned by `partnerSid`, its rules checked and its
 * defaults applied; throws RecordRuleError for a broken rule.
 */
export function recordDocFrom(
  kind: RecordKind,
  input: Readonly<Record<string, unknown>>,
  partnerSid: string,
  now: Date,
): RecordDoc {
  const doc = toRecordDoc(kind.fields, input, partnerSid, now);
  kind.complete(doc);
  return doc;
}

import {
  CallRecordInputSchema, MessageRecordInputSchema, Subjects, compileValidator,
  type CallRecordInput, type MessageRecordInput, type Validator,
} from '@patchbay/contracts';
import type { Collection } from '@patchbay/platform';
import type { ListSpec } from '@patchbay/query';
import { callDocFrom, messageDocFrom, type CallDoc, type MessageDoc } from './domain/record-docs';
import { CALL_DR_LIST_SPEC, MESSAGE_DR_LIST_SPEC } from './list-specs';
import type { RecordsRepo } from './repo';
import { serializeCall, serializeMessage } from './serialize';

/**
 * One kind of detail record (calls, messages): everything the list, get, ingest and event handlers
 * need, so they are written once for both.
 */
export interface DetailKind<D extends Record<string, unknown> = Record<string, unknown>> {
  /** For logs. */
  name: 'call_drs' | 'message_drs';
  collection: Collection<D>;
  spec: ListSpec;
  validate: Validator<unknown>;
  /** Validated input → stored document; throws RecordRuleError for a broken rule. */
  toDoc(input: unknown, partnerSid: string, now: Date): D;
  serialize(doc: D): object;
  subjects: { list: string; get: string; ingest: string; event: string };
}

// Compiled once, at module load.
const validateCall = compileValidator(CallRecordInputSchema);
const validateMessage = compileValidator(MessageRecordInputSchema);

export function detailKinds(repo: RecordsRepo): [DetailKind, DetailKind] {
  const calls: DetailKind<CallDoc> = {
    name: 'call_drs',
    collection: repo.callDrs,
    spec: CALL_DR_LIST_SPEC,
    validate: validateCall,
    toDoc: (input, partner, now) => callDocFrom(input as CallRecordInput, partner, now),
    serialize: serializeCall,
    subjects: { list: Subjects.records.callList, get: Subjects.records.callGet, ingest: Subjects.records.callIngest, event: Subjects.events.callCompleted },
  };
  const messages: DetailKind<MessageDoc> = {
    name: 'message_drs',
    collection: repo.messageDrs,
    spec: MESSAGE_DR_LIST_SPEC,
    validate: validateMessage,
    toDoc: (input, partner, now) => messageDocFrom(input as MessageRecordInput, partner, now),
    serialize: serializeMessage,
    subjects: { list: Subjects.records.messageList, get: Subjects.records.messageGet, ingest: Subjects.records.messageIngest, event: Subjects.events.messageRecorded },
  };
  // The handlers only read and write documents of the kind's own collection; the element type is
  // erased here so one handler set serves both.
  return [calls as unknown as DetailKind, messages as unknown as DetailKind];
}

import type { Static } from '@sinclair/typebox';
import type { RequestTable } from '../messages/message-spec';
import { unwrapReply, type BusReply } from '../reply';
import type { BusRequester, CallOptions } from './bus-requester';

/** What a request on `S` carries, as the family's table says. */
export type RequestOf<T extends RequestTable, S extends keyof T> = Static<T[S]['request']>;
/** The body of a 2xx reply on `S`, as the family's table says. */
export type ReplyOf<T extends RequestTable, S extends keyof T> = Static<T[S]['reply']>;

/**
 * The one call path of the typed clients: a request on a subject of one message table
 * (messages/<family>.ts), its payload typed by the table's request schema and its reply by the
 * reply schema, with the client's default options under the call's own. Errors arrive as the typed
 * errors of the reply (unwrapReply).
 */
export class TableCaller<T extends RequestTable> {
  constructor(
    private readonly bus: BusRequester,
    /** Read for its types only: the subjects and shapes this caller may send. */
    readonly table: T,
    private readonly defaults: CallOptions = {},
  ) {}

  /** The reply body on `subject`, or the typed error the reply carries. */
  async call<S extends keyof T & string>(
    subject: S,
    payload: RequestOf<T, S>,
    opts?: CallOptions,
  ): Promise<ReplyOf<T, S>> {
    return unwrapReply<ReplyOf<T, S>>(await this.raw(subject, payload, opts));
  }

  /** The reply as the server sent it (the gateway answers some with the reply itself). */
  raw<S extends keyof T & string>(subject: S, payload: RequestOf<T, S>, opts?: CallOptions): Promise<BusReply> {
    return this.bus.request(subject, payload, { ...this.defaults, ...opts });
  }
}

import type { TSchema } from '@sinclair/typebox';

/**
 * What travels on one request subject: the request, checked where it is received, and the reply
 * body (a 2xx; errors travel as the error envelope of every reply, reply.ts).
 */
export interface RequestSpec<Q extends TSchema = TSchema, R extends TSchema = TSchema> {
  request: Q;
  reply: R;
}

/** The payload of one durable event or job subject, checked where it is received. */
export interface PayloadSpec<P extends TSchema = TSchema> {
  payload: P;
}

/** Subject → what travels on it: one table per service family (messages/<family>.ts). */
export type RequestTable = Readonly<Record<string, RequestSpec>>;
export type PayloadTable = Readonly<Record<string, PayloadSpec>>;

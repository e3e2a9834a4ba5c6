import { Type } from '@sinclair/typebox';
import { ErrorBodySchema } from './error';

/** Wire shape of a bus reply: `{status, body}` or `{status, error}` (see reply.ts). */
export const BusReplySchema = Type.Union(
  [
    Type.Object(
      { status: Type.Integer({ minimum: 100, maximum: 599 }), body: Type.Unknown() },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        status: Type.Integer({ minimum: 100, maximum: 599 }),
        error: ErrorBodySchema,
        /** The error's stable code (error-codes.ts); internal, never in the public HTTP body. */
        code: Type.Optional(Type.String()),
        retry_after: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      { additionalProperties: false },
    ),
  ],
  { $id: 'BusReply' },
);

import { Type, type Static } from '@sinclair/typebox';

export const ErrorItemSchema = Type.Object(
  {
    field: Type.Union([Type.String(), Type.Null()]),
    message: Type.String(),
    reference_sid: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false, $id: 'ErrorItem' },
);
export type ErrorItem = Static<typeof ErrorItemSchema>;

/** The error body of every 4xx/5xx response and every error bus reply. */
export const ErrorBodySchema = Type.Object(
  {
    errors: Type.Array(ErrorItemSchema),
    message: Type.String(),
  },
  { additionalProperties: false, $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

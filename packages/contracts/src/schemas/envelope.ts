import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const PaginationSchema = Type.Object(
  {
    next: Type.Optional(Type.String({ format: 'uri' })),
    previous: Type.Optional(Type.String({ format: 'uri' })),
  },
  { additionalProperties: false },
);

/** The list envelope every paginated GET returns, items typed by `item`. */
export function ListEnvelopeSchema<T extends TSchema>(item: T) {
  return Type.Object(
    {
      count: Type.Integer({ minimum: 0 }),
      has_more: Type.Boolean(),
      items: Type.Array(item),
      limit: Type.Integer({ minimum: 0, maximum: 1000 }),
      offset: Type.Integer({ minimum: 0 }),
      pagination: PaginationSchema,
      total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    },
    { additionalProperties: false },
  );
}

export const AnyListEnvelopeSchema = ListEnvelopeSchema(Type.Object({}, { additionalProperties: true }));
export interface ListEnvelope<T> {
  count: number;
  has_more: boolean;
  items: T[];
  limit: number;
  offset: number;
  pagination: Static<typeof PaginationSchema>;
  total: number | null;
}

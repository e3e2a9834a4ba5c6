import { Type, type Static, type TSchema } from '@sinclair/typebox';

/*
 * Usage of detail records (docs/interface-notes.md, "Usage"): `GET /calls/call_drs/usage` and
 * `GET /sms/message_drs/usage` answer totals per hour, day or month, computed by the store.
 */

export const USAGE_UNITS = ['hour', 'day', 'month'] as const;
export type UsageUnit = (typeof USAGE_UNITS)[number];
/** The second keys `group_by` may add (`group_by=day,direction`), per kind: fields of few values. */
export const CALL_USAGE_KEYS = ['direction', 'sipcause', 'number_src', 'number_dst'] as const;
export const MESSAGE_USAGE_KEYS = ['direction', 'type', 'status', 'number_src', 'number_dst'] as const;

const Key = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const Count = Type.Integer({ minimum: 0 });

/** One call bucket. */
export const CallUsageItemSchema = Type.Object(
  {
    /** The bucket's first instant, in the answer's time zone (`2026-03-01T00:00:00+01:00`; `Z` at offset 0). */
    date: Type.String({ format: 'date-time' }),
    calls: Count,
    /** Calls whose `sipcause` is 200. */
    answered: Count,
    /** The sum of `duration_billing`, in minutes, rounded to 2 decimals. */
    minutes: Type.Number({ minimum: 0 }),
    /** The sum of `price`, rounded to 6 decimals. */
    cost: Type.Number(),
    /** answered / calls, rounded to 4 decimals (0 without calls). */
    asr: Type.Number({ minimum: 0, maximum: 1 }),
    /** The mean `duration_billing` of the answered calls, in minutes, rounded to 2 decimals (0 without any). */
    acd: Type.Number({ minimum: 0 }),
    /** Present with a second key: the bucket's value of it (null: records without one). */
    direction: Key,
    sipcause: Key,
    number_src: Key,
    number_dst: Key,
  },
  { additionalProperties: false, $id: 'CallUsageItem' },
);

/** One message bucket. */
export const MessageUsageItemSchema = Type.Object(
  {
    date: Type.String({ format: 'date-time' }),
    messages: Count,
    /** The sum of `message_segments` (a record without it adds none). */
    segments: Count,
    /** The sum of `price`, rounded to 6 decimals. */
    cost: Type.Number(),
    direction: Key,
    type: Key,
    status: Key,
    number_src: Key,
    number_dst: Key,
  },
  { additionalProperties: false, $id: 'MessageUsageItem' },
);

/** The answer: the range (whole buckets), how it was grouped, one item per bucket (and key value) in date order. */
const usageSchema = <T extends TSchema>(item: T, id: string) =>
  Type.Object(
    {
      /** The first instant of the first bucket. */
      from: Type.String({ format: 'date-time' }),
      /** The instant after the last bucket. */
      to: Type.String({ format: 'date-time' }),
      group_by: Type.String(),
      tz: Type.String(),
      items: Type.Array(item),
    },
    { additionalProperties: false, $id: id },
  );

export const CallUsageSchema = usageSchema(CallUsageItemSchema, 'CallUsage');
export type CallUsage = Static<typeof CallUsageSchema>;
export type CallUsageItem = Static<typeof CallUsageItemSchema>;
export const MessageUsageSchema = usageSchema(MessageUsageItemSchema, 'MessageUsage');
export type MessageUsage = Static<typeof MessageUsageSchema>;
export type MessageUsageItem = Static<typeof MessageUsageItemSchema>;

/** The query parameters of both usage routes (for the OpenAPI document). */
export const UsageQuerySchema = Type.Object({
  group_by: Type.Optional(
    Type.String({
      description:
        '`hour`, `day` (default) or `month`, optionally followed by a second key: `day,direction`. ' +
        `Calls: ${CALL_USAGE_KEYS.join(', ')}; messages: ${MESSAGE_USAGE_KEYS.join(', ')}.`,
    }),
  ),
  tz: Type.Optional(Type.String({ description: 'An IANA time zone for the buckets (default `UTC`).' })),
  filter: Type.Optional(Type.String({ description: 'The list filter grammar; its date range sets the range.' })),
});

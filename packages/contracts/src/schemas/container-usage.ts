import { Type, type Static } from '@sinclair/typebox';

/*
 * Storage usage over time (docs/interface-notes.md, "Usage"): `GET /storage/containers/{sid}/usage`,
 * one snapshot of the container's counters per UTC day, kept by the threshold-worker.
 */

/** A day's snapshot: the container's counters at the last sweep tick of that day (today: the latest). */
export const ContainerUsageItemSchema = Type.Object(
  {
    /** The UTC day, `YYYY-MM-DD`. */
    date: Type.String({ format: 'date' }),
    files: Type.Integer({ minimum: 0 }),
    bytes: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, $id: 'ContainerUsageItem' },
);
export type ContainerUsageItem = Static<typeof ContainerUsageItemSchema>;

export const ContainerUsageSchema = Type.Object(
  {
    container_sid: Type.String(),
    /** The days asked for (`from` to `to`, both included). */
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    /** The days with a snapshot, in date order (a day before the first snapshot, or missed, has none). */
    items: Type.Array(ContainerUsageItemSchema),
  },
  { additionalProperties: false, $id: 'ContainerUsage' },
);
export type ContainerUsage = Static<typeof ContainerUsageSchema>;

export const ContainerUsageQuerySchema = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', description: 'First day (UTC); default: 30 days before `to`.' })),
  to: Type.Optional(
    Type.String({ format: 'date', description: 'Last day (UTC), at most 400 after `from`; default: today.' }),
  ),
});

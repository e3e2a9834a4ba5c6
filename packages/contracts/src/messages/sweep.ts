import { Type, type Static } from '@sinclair/typebox';

/**
 * Internal messages between the threshold-worker and storage (`Subjects.storage.sweep*`). Storage
 * owns the files, so every deletion is a request to it; the worker only decides when to ask.
 */

const Sid = Type.String({ minLength: 1, maxLength: 64 });
const Limit = Type.Integer({ minimum: 1, maximum: 1000 });

/** Why a file was deleted: a delete_lru sweep or its lifecycle_ttl. */
export const SWEEP_REASONS = ['lru', 'lifecycle'] as const;
export type SweepReason = (typeof SWEEP_REASONS)[number];

/** One page of the delete_lru containers due a sweep, after `after` in container_sid order. */
export const SweepContainersRequestSchema = Type.Object(
  {
    after: Type.Union([Sid, Type.Null()]),
    limit: Limit,
  },
  { additionalProperties: false },
);
export type SweepContainersRequest = Static<typeof SweepContainersRequestSchema>;
export const SweepContainersReplySchema = Type.Object({
  container_sids: Type.Array(Type.String()),
  /** Pass as `after` for the next page; null on the last page. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type SweepContainersReply = Static<typeof SweepContainersReplySchema>;

/**
 * Claims (or renews) the sweep lease of a container for `owner` and returns its counts and its
 * `limit` least recently used threshold_include files. Only the lease holder may delete by LRU.
 */
export const SweepCandidatesRequestSchema = Type.Object(
  {
    container_sid: Sid,
    owner: Type.String({ minLength: 1, maxLength: 200 }),
    lease_ms: Type.Integer({ minimum: 1000, maximum: 3_600_000 }),
    limit: Limit,
  },
  { additionalProperties: false },
);
export type SweepCandidatesRequest = Static<typeof SweepCandidatesRequestSchema>;

/** A container's threshold counts and targets, and what they mean for a sweep. */
const NullableCount = Type.Union([Type.Number(), Type.Null()]);
export const SweepContainerStateSchema = Type.Object({
  container_sid: Type.String(),
  partner_sid: Type.String(),
  threshold_files: NullableCount,
  threshold_bytes: NullableCount,
  threshold_files_target: NullableCount,
  threshold_bytes_target: NullableCount,
  threshold_total_files: Type.Number(),
  threshold_total_bytes: Type.Number(),
  /** A count is above its target and a sweep is due (delete the next LRU file). */
  over_target: Type.Boolean(),
});
export type SweepContainerState = Static<typeof SweepContainerStateSchema>;

export const SweepCandidateSchema = Type.Object({
  file_sid: Type.String(),
  file_bytes: Type.Number(),
  /** ISO 8601; sent back with the delete so a file read since is not deleted. */
  date_last_accessed: Type.String(),
});
export type SweepCandidate = Static<typeof SweepCandidateSchema>;

export const SweepCandidatesReplySchema = Type.Object({
  /** Null when the container is gone or no longer delete_lru. */
  container: Type.Union([SweepContainerStateSchema, Type.Null()]),
  /** False when another sweep holds the container's lease. */
  claimed: Type.Boolean(),
  /** In least-recently-used order: date_last_accessed, then file_sid. Empty unless claimed and over target. */
  files: Type.Array(SweepCandidateSchema),
});
export type SweepCandidatesReply = Static<typeof SweepCandidatesReplySchema>;

/** `lru` needs container_sid, owner and date_last_accessed (the candidate as seen). */
export const SweepDeleteRequestSchema = Type.Object(
  {
    file_sid: Sid,
    reason: Type.Union(SWEEP_REASONS.map((r) => Type.Literal(r))),
    container_sid: Type.Optional(Sid),
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    date_last_accessed: Type.Optional(Type.String({ format: 'date-time' })),
    /** For `lru`: how long the lease is renewed for. */
    lease_ms: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3_600_000 })),
  },
  { additionalProperties: false },
);
export type SweepDeleteRequest = Static<typeof SweepDeleteRequestSchema>;

export const SweepDeleteReplySchema = Type.Object({
  deleted: Type.Boolean(),
  /** The deleted file (when `deleted`). */
  file: Type.Union([
    Type.Object({
      file_sid: Type.String(),
      container_sid: Type.String(),
      partner_sid: Type.String(),
      file_bytes: Type.Number(),
    }),
    Type.Null(),
  ]),
  /** For `lru`: the container after this request (null when gone). */
  container: Type.Union([SweepContainerStateSchema, Type.Null()]),
  /** For `lru`: false when the lease is no longer the caller's (stop sweeping). */
  holds_lease: Type.Boolean(),
});
export type SweepDeleteReply = Static<typeof SweepDeleteReplySchema>;

export const SweepReleaseRequestSchema = Type.Object(
  {
    container_sid: Sid,
    owner: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type SweepReleaseRequest = Static<typeof SweepReleaseRequestSchema>;

export const SweepExpiredRequestSchema = Type.Object({ limit: Limit }, { additionalProperties: false });
export type SweepExpiredRequest = Static<typeof SweepExpiredRequestSchema>;
export const SweepExpiredReplySchema = Type.Object({
  files: Type.Array(Type.Object({ file_sid: Type.String(), container_sid: Type.String(), expires_at: Type.String() })),
});
export type SweepExpiredReply = Static<typeof SweepExpiredReplySchema>;

/**
 * Keeps a page of containers' usage snapshots for one UTC day (`Subjects.storage.usageSnapshot`): each
 * container after `after` in container_sid order gets its counters written as that day's snapshot.
 */
export const UsageSnapshotRequestSchema = Type.Object(
  {
    date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
    after: Type.Union([Sid, Type.Null()]),
    limit: Limit,
  },
  { additionalProperties: false },
);
export type UsageSnapshotRequest = Static<typeof UsageSnapshotRequestSchema>;
export const UsageSnapshotReplySchema = Type.Object({
  written: Type.Integer({ minimum: 0 }),
  /** Pass as `after` for the next page; null on the last page. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type UsageSnapshotReply = Static<typeof UsageSnapshotReplySchema>;

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
export interface SweepContainersReply {
  container_sids: string[];
  /** Pass as `after` for the next page; null on the last page. */
  next: string | null;
}

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
export interface SweepContainerState {
  container_sid: string;
  partner_sid: string;
  threshold_files: number | null;
  threshold_bytes: number | null;
  threshold_files_target: number | null;
  threshold_bytes_target: number | null;
  threshold_total_files: number;
  threshold_total_bytes: number;
  /** A count is above its target and a sweep is due (delete the next LRU file). */
  over_target: boolean;
}

export interface SweepCandidate {
  file_sid: string;
  file_bytes: number;
  /** ISO 8601; sent back with the delete so a file read since is not deleted. */
  date_last_accessed: string;
}

export interface SweepCandidatesReply {
  /** Null when the container is gone or no longer delete_lru. */
  container: SweepContainerState | null;
  /** False when another sweep holds the container's lease. */
  claimed: boolean;
  /** In least-recently-used order: date_last_accessed, then file_sid. Empty unless claimed and over target. */
  files: SweepCandidate[];
}

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

export interface SweepDeleteReply {
  deleted: boolean;
  /** The deleted file (when `deleted`). */
  file: { file_sid: string; container_sid: string; partner_sid: string; file_bytes: number } | null;
  /** For `lru`: the container after this request (null when gone). */
  container: SweepContainerState | null;
  /** For `lru`: false when the lease is no longer the caller's (stop sweeping). */
  holds_lease: boolean;
}

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
export interface SweepExpiredReply {
  files: Array<{ file_sid: string; container_sid: string; expires_at: string }>;
}

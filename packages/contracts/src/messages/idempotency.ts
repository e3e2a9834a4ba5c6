import { Type, type Static } from '@sinclair/typebox';

/**
 * The Idempotency-Key records the gateway keeps in identity's store (svc.identity.idempotency.*),
 * so that every gateway replica, and a gateway started again, sees the same keys (decisions §48).
 * A key belongs to the calling partner. Hashes are SHA-256 in hex, computed by the gateway:
 * `key_hash` of the key (identity never sees the key itself: the answers are sealed with a key
 * derived from it, so the store alone cannot read them), `request_hash` of the method, path and
 * sorted query, `body_hash` of the body (null while a streamed body is still being read).
 */

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Key = Type.String({ minLength: 1, maxLength: 255 });
const Owner = { partner_sid: Type.String({ minLength: 1 }), key_hash: Hash };

/** A claim of a key: who holds it (`lease_id`), until when unless renewed. */
const LeaseMs = Type.Integer({ minimum: 100, maximum: 3_600_000 });

/**
 * An answer kept to replay: status below 500, the headers that matter, and the body as sent (UTF-8
 * JSON, or empty) sealed by the gateway (Base64 of AES-256-GCM's IV, tag and ciphertext).
 */
export const IdempotentAnswerSchema = Type.Object({
  status: Type.Integer({ minimum: 100, maximum: 499 }),
  headers: Type.Record(Type.String(), Type.String()),
  sealed_body: Type.String(),
});
export type IdempotentAnswer = Static<typeof IdempotentAnswerSchema>;

export const IdempotencyBeginRequestSchema = Type.Object({
  ...Owner,
  request_hash: Hash,
  body_hash: Type.Union([Hash, Type.Null()]),
  lease_ms: LeaseMs,
});
export type IdempotencyBeginRequest = Static<typeof IdempotencyBeginRequestSchema>;

/**
 * `run`: the key is this request's now (a new key, an expired one, or a claim whose holder stopped
 * renewing it); `in_progress`: another request with it is running; `mismatch`: the key was used for
 * another request; `replay`: the answer kept for it — the body hashes are compared by identity
 * when the gateway gave one, else (a streamed body) by the gateway once it has read the body.
 */
export const IdempotencyBeginReplySchema = Type.Union([
  Type.Object({ outcome: Type.Literal('run'), lease_id: Type.String(), expires_at: Type.String() }),
  Type.Object({ outcome: Type.Literal('in_progress'), retry_after: Type.Integer({ minimum: 1 }) }),
  Type.Object({ outcome: Type.Literal('mismatch') }),
  Type.Object({
    outcome: Type.Literal('replay'),
    body_hash: Type.Union([Hash, Type.Null()]),
    body_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    answer: IdempotentAnswerSchema,
  }),
]);
export type IdempotencyBeginReply = Static<typeof IdempotencyBeginReplySchema>;

/** The answer of the request that holds the key, kept until `expires_at`; `kept` false when the claim was lost. */
export const IdempotencyFinishRequestSchema = Type.Object({
  ...Owner,
  lease_id: Type.String(),
  body_hash: Hash,
  body_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  answer: IdempotentAnswerSchema,
});
export type IdempotencyFinishRequest = Static<typeof IdempotencyFinishRequestSchema>;

export const IdempotencyReleaseRequestSchema = Type.Object({ ...Owner, lease_id: Type.String() });
export type IdempotencyReleaseRequest = Static<typeof IdempotencyReleaseRequestSchema>;

export const IdempotencyRenewRequestSchema = Type.Object({ ...Owner, lease_id: Type.String(), lease_ms: LeaseMs });
export type IdempotencyRenewRequest = Static<typeof IdempotencyRenewRequestSchema>;

/** Whether the claim was still this request's (false: it was taken over, or the key expired). */
export const IdempotencyHeldReplySchema = Type.Object({ held: Type.Boolean() });
export type IdempotencyHeldReply = Static<typeof IdempotencyHeldReplySchema>;

/**
 * An upload's key as the gateway hands it to storage's commit, so that a commit repeated after its
 * answer was lost returns the file already committed: the caller's key, a fingerprint of the whole
 * request (request and body hashes), and until when identity keeps the key.
 */
export const UploadIdempotencySchema = Type.Object({ key: Key, fingerprint: Hash, expires_at: Type.String() });
export type UploadIdempotency = Static<typeof UploadIdempotencySchema>;

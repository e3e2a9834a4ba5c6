import { Type, type Static } from '@sinclair/typebox';
import { Subjects } from '../subjects';
import type { RequestSpec } from './message-spec';

/**
 * The cache of download-time transcoded copies (`cache/<file_sid>/…` blobs), kept by storage
 * (docs/security.md "Transcoding capacity"). A copy missing from the blob store is claimed first:
 * exactly one caller, across every file-server and transcoder replica, gets the lease to have it
 * made; the others wait for it to be ready. The transcoder making it renews the lease while it
 * works, so a lease that runs out means the maker died: the next claim takes it over. Storage counts
 * every stored copy's bytes and evicts the least recently used beyond its budget, never one being
 * read (`used` marks a copy in use for COPY_USE_MS). Served by services/storage
 * (handlers/copies.ts); asked through clients/copy-cache-client.ts.
 */

/** A claim's lease: a maker that has not renewed it for this long is taken for dead. */
export const COPY_LEASE_MS = 10_000;
/** How often the maker renews its lease (a few times per lease, so one late renewal does not lose it). */
export const COPY_RENEW_MS = 2_500;
/** How long a copy counts as being read after a `used` (a reader of a long download says it again). */
export const COPY_USE_MS = 15_000;

const Key = Type.String({ minLength: 7, maxLength: 1024, pattern: '^cache/' });
const Token = Type.String({ minLength: 1, maxLength: 64 });

export const CopyClaimRequestSchema = Type.Object({ key: Key, file_sid: Type.String({ minLength: 1, maxLength: 64 }) });
export type CopyClaimRequest = Static<typeof CopyClaimRequestSchema>;
/**
 * `ready`: the copy is in the blob store (`size` bytes). `yours`: have it made, passing `token` to
 * the transcoder; give it back (release) if that fails. `busy`: another is making it (ask again).
 */
export const CopyClaimReplySchema = Type.Union([
  Type.Object({ state: Type.Literal('ready'), size: Type.Integer({ minimum: 0 }) }),
  Type.Object({ state: Type.Literal('yours'), token: Token }),
  // `live`: the subject where the maker streams it as it is made (decisions §53), when it does.
  Type.Object({ state: Type.Literal('busy'), live: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) }),
]);
export type CopyClaimReply = Static<typeof CopyClaimReplySchema>;

export const CopyLeaseRequestSchema = Type.Object({ key: Key, token: Token });
export type CopyLeaseRequest = Static<typeof CopyLeaseRequestSchema>;
/** A renewal; `live`: the subject where the copy can be joined as it is made (given back in `busy`). */
export const CopyRenewRequestSchema = Type.Object({
  key: Key,
  token: Token,
  live: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
});
export type CopyRenewRequest = Static<typeof CopyRenewRequestSchema>;
export const CopyRenewReplySchema = Type.Object({ held: Type.Boolean() });
export type CopyRenewReply = Static<typeof CopyRenewReplySchema>;

export const CopyStoredRequestSchema = Type.Object({ key: Key, token: Token, size: Type.Integer({ minimum: 0 }) });
export type CopyStoredRequest = Static<typeof CopyStoredRequestSchema>;
export const CopyUsedRequestSchema = Type.Object({ keys: Type.Array(Key, { minItems: 1, maxItems: 100 }) });
export type CopyUsedRequest = Static<typeof CopyUsedRequestSchema>;
const Done = Type.Object({});

export const CopyCacheRequests = {
  [Subjects.storage.copyClaim]: { request: CopyClaimRequestSchema, reply: CopyClaimReplySchema },
  [Subjects.storage.copyRenew]: { request: CopyRenewRequestSchema, reply: CopyRenewReplySchema },
  [Subjects.storage.copyStored]: { request: CopyStoredRequestSchema, reply: Done },
  [Subjects.storage.copyRelease]: { request: CopyLeaseRequestSchema, reply: Done },
  [Subjects.storage.copyUsed]: { request: CopyUsedRequestSchema, reply: Done },
} as const satisfies Record<string, RequestSpec>;

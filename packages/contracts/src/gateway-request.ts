import { Type, type Static } from '@sinclair/typebox';
import type { Scope } from './schemas/scopes';

/**
 * The caller's scopes, checked as strings: a scope this build does not know yet (a newer identity
 * during a rolling update) must not turn every call into a 400. Services only compare scopes they
 * know, so the type stays Scope[].
 */
const ScopesOnTheWire = Type.Unsafe<Scope[]>(Type.Array(Type.String()));

/** Who is calling, as established by the gateway. Services trust it: the bus is internal. */
export const PrincipalSchema = Type.Object({
  partner_sid: Type.String(),
  login: Type.String(),
  scopes: ScopesOnTheWire,
  /** The token used, or null for HTTP Basic. */
  token_sid: Type.Union([Type.String(), Type.Null()]),
});
export type Principal = Static<typeof PrincipalSchema>;

/**
 * A write sent with an Idempotency-Key, as the gateway claimed it (docs/interface-notes.md §22): the
 * service keeps its answer under the key (platform's kept-answers.ts), so a retry whose first answer
 * was lost between the service and the gateway (a bus timeout, NATS down) gets that answer instead of
 * running the write again.
 */
export const KeyedWriteSchema = Type.Object({
  /** SHA-256 of the key (the key itself never leaves the gateway). */
  key_hash: Type.String(),
  /** Method, path, query and body hashed: another request under the key is refused (422). */
  fingerprint: Type.String(),
  /** The AES-256 key (Base64) the kept answer is sealed with; derived from the Idempotency-Key, never stored. */
  seal_key: Type.String(),
  /** When the kept answer may be forgotten (ISO 8601). */
  expires_at: Type.String(),
});
export type KeyedWrite = Static<typeof KeyedWriteSchema>;

/**
 * What the gateway sends a service for one API call: the caller, path parameters, the raw query
 * (strings, already URL-decoded), the body as parsed (the service checks it against the public
 * schema of the resource, so a bad field is a 400 naming it), and the absolute public URL of the
 * request (for pagination links).
 */
export const GatewayRequestSchema = Type.Object({
  principal: PrincipalSchema,
  params: Type.Record(Type.String(), Type.String()),
  query: Type.Record(Type.String(), Type.Unknown()),
  body: Type.Optional(Type.Unknown()),
  url: Type.String(),
  idempotency: Type.Optional(KeyedWriteSchema),
});

/** A GatewayRequest whose body a handler has read as `B` (it arrives unchecked: see above). */
export type GatewayRequest<B = unknown> = Omit<Static<typeof GatewayRequestSchema>, 'body'> & { body?: B };

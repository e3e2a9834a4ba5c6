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
});

/** A GatewayRequest whose body a handler has read as `B` (it arrives unchecked: see above). */
export type GatewayRequest<B = unknown> = Omit<Static<typeof GatewayRequestSchema>, 'body'> & { body?: B };

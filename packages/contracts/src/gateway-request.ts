import type { Scope } from './schemas/scopes';

/** Who is calling, as established by the gateway. Services trust it: the bus is internal. */
export interface Principal {
  partner_sid: string;
  login: string;
  scopes: Scope[];
  /** The token used, or null for HTTP Basic. */
  token_sid: string | null;
}

/**
 * What the gateway sends a service for one API call: the caller, path parameters, the raw query
 * (strings, already URL-decoded), the parsed body, and the absolute public URL of the request
 * (for pagination links).
 */
export interface GatewayRequest<B = unknown> {
  principal: Principal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: B;
  url: string;
}

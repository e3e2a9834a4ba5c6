export interface RouteDef {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** Express path under /core/v2. */
  path: string;
  /** Bus subject the call is forwarded to. */
  subject: string;
  /** Any one of these grants the call; empty = any authenticated caller. */
  scopes: readonly string[];
  /** How the body is read: JSON (default for POST/PATCH/PUT), form-encoded, or none. */
  body?: 'json' | 'form' | 'none';
  /** False for the token grant, which authenticates by its own form fields. */
  auth?: boolean;
}

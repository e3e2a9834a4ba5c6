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

/** How a route reads its body: as declared, else JSON for POST/PATCH/PUT and none for GET/DELETE. */
export function bodyKind(route: RouteDef): 'json' | 'form' | 'none' {
  return route.body ?? (route.method === 'post' || route.method === 'patch' || route.method === 'put' ? 'json' : 'none');
}

/**
 * How the client authenticates: an access token, or the partner's login and password (HTTP Basic); neither for the
 * token grant.
 */
export interface Credentials {
  token?: string;
  login?: string;
  password?: string;
}

/** Base64 of UTF-8 text, without Node's Buffer (the client also runs in browsers). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The Authorization header of these credentials: the token if there is one, else Basic; none without either. */
export function authorization(c: Credentials): Record<string, string> {
  if (c.token) return { Authorization: `Bearer ${c.token}` };
  if (c.login && c.password !== undefined) return { Authorization: `Basic ${base64(`${c.login}:${c.password}`)}` };
  return {};
}

import { createPatchbayClient, data, type PatchbayClient, type Schemas } from '@patchbay/client';
import { whole } from './whole';

/**
 * The signed-in partner: its token lives in this module's memory only — never in a URL, in
 * localStorage or in sessionStorage — so a reload or a new tab asks to sign in again.
 */
export interface Session {
  client: PatchbayClient;
  partner: Schemas['Partner'];
  token: string;
}

/** The API root: the gateway that served this page answers the API on the same origin. */
export const API_ROOT = `${window.location.origin}/core/v2`;

const anonymous = createPatchbayClient({ baseUrl: API_ROOT });

/** A session for an access token, checked by asking the API who it belongs to. */
export async function sessionForToken(token: string): Promise<Session> {
  const client = anonymous.withCredentials({ token });
  const partner = whole<Schemas['Partner']>(await data(client.api.GET('/oauth/whoami')));
  return { client, partner, token };
}

/** Signs in with login and password through the token route (password grant). */
export async function signIn(username: string, password: string): Promise<Session> {
  const issued = await data(
    anonymous.api.POST('/oauth/token', { body: { grant_type: 'password', username, password, name: 'console' } }),
  );
  if (!issued.access_token) throw new Error('the API issued no access token');
  return sessionForToken(issued.access_token);
}

/** Revokes the session's token (best effort: signing out always forgets it here). */
export async function signOut(session: Session): Promise<void> {
  await session.client.api.POST('/oauth/revoke', { body: {} }).catch(() => undefined);
}

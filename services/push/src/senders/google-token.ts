import type https from 'node:https';
import { JWT } from 'google-auth-library';
import type { ServiceAccount } from '../domain/credentials';

/** The OAuth scope FCM HTTP v1 asks for. */
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/**
 * An application's OAuth 2.0 access token for FCM, from its service account through
 * google-auth-library (the JWT-bearer exchange firebase-admin does too): fetched on first use,
 * kept, and refreshed by the library before it expires. `agent` aims the exchange at a test
 * endpoint (fcm-endpoint.ts).
 */
export class GoogleAccessToken {
  private readonly jwt: JWT;

  constructor(sa: ServiceAccount, agent?: https.Agent) {
    this.jwt = new JWT({
      email: sa.client_email,
      key: sa.private_key,
      keyId: typeof sa.private_key_id === 'string' ? sa.private_key_id : undefined,
      scopes: [FCM_SCOPE],
      ...(agent ? { transporterOptions: { agent } } : {}),
    });
  }

  /** `Bearer <token>`; rejects when the exchange fails (credentials Google refuses, or no answer). */
  async authorization(): Promise<string> {
    const { token } = await this.jwt.getAccessToken();
    if (!token) throw new Error('the token exchange returned no access token');
    return `Bearer ${token}`;
  }
}

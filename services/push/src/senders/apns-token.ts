import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

/** A provider token is reused this long, then signed anew (Apple accepts one for 60 minutes). */
export const APNS_TOKEN_REFRESH_MS = 50 * 60_000;
/** Apple answers TooManyProviderTokenUpdates to a key whose token changes more often than this. */
export const APNS_TOKEN_MIN_AGE_MS = 20 * 60_000;

export interface ApnsTokenKey {
  /** PEM of the .p8 key (P-256). */
  key: string;
  keyId: string;
  teamId: string;
}

const base64url = (json: unknown): string => Buffer.from(JSON.stringify(json)).toString('base64url');

/**
 * An APNs provider token (ES256 JWT: header `{alg, typ, kid}`, claims `{iat, iss}`, as node-apn
 * made it), signed with node:crypto on first use and kept: every request carries the same token
 * until it is APNS_TOKEN_REFRESH_MS old. One APNs calls expired is replaced on the next request,
 * but never sooner than APNS_TOKEN_MIN_AGE_MS after it was signed. `now` is injectable (tests).
 */
export class ApnsProviderToken {
  private readonly key: KeyObject;
  private current?: { authorization: string; signedAt: number };

  constructor(
    private readonly credentials: ApnsTokenKey,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createPrivateKey(credentials.key);
  }

  /** `bearer <JWT>` (node-apn's spelling), signed anew when the kept one is due. */
  authorization(): string {
    const now = this.now();
    const kept = this.current;
    if (kept && now - kept.signedAt < APNS_TOKEN_REFRESH_MS) return kept.authorization;
    const head = base64url({ alg: 'ES256', typ: 'JWT', kid: this.credentials.keyId });
    const claims = base64url({ iat: Math.floor(now / 1000), iss: this.credentials.teamId });
    const signature = sign('sha256', Buffer.from(`${head}.${claims}`), { key: this.key, dsaEncoding: 'ieee-p1363' });
    this.current = { authorization: `bearer ${head}.${claims}.${signature.toString('base64url')}`, signedAt: now };
    return this.current.authorization;
  }

  /** APNs answered ExpiredProviderToken to `authorization`: sign a new one next time, if this one may be replaced. */
  expired(authorization: string): void {
    const kept = this.current;
    if (kept?.authorization === authorization && this.now() - kept.signedAt >= APNS_TOKEN_MIN_AGE_MS)
      this.current = undefined;
  }
}

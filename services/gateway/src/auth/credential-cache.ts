import type { Principal } from '@patchbay/contracts';

interface Entry {
  principal: Principal;
  expires: number;
}

/**
 * Authenticated credentials kept for a few seconds, keyed by a hash of the credential. Entries of
 * a revoked token or a changed partner are dropped when identity announces it (every replica
 * hears it); `ttlMs` bounds what a lost announcement could leave behind.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10000,
  ) {}

  get(key: string): Principal | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.principal;
  }

  /**
   * Keeps `principal` for `ttlMs`, but never past `expiresAt` (epoch ms): a token that expires
   * is refused from that instant, not up to `ttlMs` later.
   */
  set(key: string, principal: Principal, expiresAt = Infinity): void {
    const expires = Math.min(Date.now() + this.ttlMs, expiresAt);
    if (this.ttlMs <= 0 || expires <= Date.now()) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { principal, expires });
  }

  /** Drops every entry of a partner (its scopes, status or password changed, or a token went). */
  dropPartner(partnerSid: string): void {
    for (const [key, e] of this.entries) if (e.principal.partner_sid === partnerSid) this.entries.delete(key);
  }

  /** Drops the entry of a token (revoked, or its scopes changed). */
  dropToken(tokenSid: string): void {
    for (const [key, e] of this.entries) if (e.principal.token_sid === tokenSid) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

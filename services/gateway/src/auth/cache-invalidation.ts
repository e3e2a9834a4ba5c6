import { Subjects } from '@patchbay/contracts';
import type { Bus, Logger, Subscription } from '@patchbay/platform';
import type { CredentialCache } from './credential-cache';

/**
 * Keeps every gateway replica's credential cache honest: the identity service announces each
 * revoked or changed token and each changed partner, and every replica (a `listen` fan-out, not a
 * shared durable consumer) forgets what it cached for them at once. AUTH_CACHE_MS remains the
 * bound only if such an announcement is lost (NATS down at that moment).
 */
export async function invalidateOnIdentityEvents(bus: Bus, cache: CredentialCache, logger: Logger): Promise<Subscription[]> {
  if (!bus.listen) {
    logger.warn('this bus cannot fan out; cached credentials of other replicas expire after AUTH_CACHE_MS');
    return [];
  }
  return Promise.all([
    bus.listen(Subjects.events.tokenRevoked, async (payload) => {
      const sid = (payload as { token_sid?: unknown } | null)?.token_sid;
      if (typeof sid === 'string') cache.dropToken(sid); else cache.clear();
    }),
    bus.listen(Subjects.events.partnerUpdated, async (payload) => {
      const sid = (payload as { partner?: { partner_sid?: unknown } } | null)?.partner?.partner_sid;
      if (typeof sid === 'string') cache.dropPartner(sid); else cache.clear();
    }),
  ]);
}

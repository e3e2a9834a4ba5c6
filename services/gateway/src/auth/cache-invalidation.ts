import { PartnerEventSchema, Subjects, TokenRevokedEventSchema } from '@patchbay/contracts';
import { messageCheck, type Bus, type Logger, type Subscription } from '@patchbay/platform';
import type { CredentialCache } from './credential-cache';

/**
 * Keeps every gateway replica's credential cache honest: the identity service announces each
 * revoked or changed token and each changed partner, and every replica (a `listen` fan-out, not a
 * shared durable consumer) forgets what it cached for them at once. AUTH_CACHE_MS remains the
 * bound only if such an announcement is lost (NATS down at that moment). An announcement that
 * cannot be read is logged and forgets everything: the safe side.
 */
export async function invalidateOnIdentityEvents(
  bus: Bus,
  cache: CredentialCache,
  logger: Logger,
): Promise<Subscription[]> {
  if (!bus.listen) {
    logger.warn('this bus cannot fan out; cached credentials of other replicas expire after AUTH_CACHE_MS');
    return [];
  }
  const tokenRevoked = messageCheck(Subjects.events.tokenRevoked, TokenRevokedEventSchema);
  const partnerUpdated = messageCheck(Subjects.events.partnerUpdated, PartnerEventSchema);
  return Promise.all([
    bus.listen(Subjects.events.tokenRevoked, async (payload) => {
      try {
        cache.dropToken(tokenRevoked(payload, logger).token_sid);
      } catch {
        cache.clear();
      }
    }),
    bus.listen(Subjects.events.partnerUpdated, async (payload) => {
      try {
        cache.dropPartner(partnerUpdated(payload, logger).partner.partner_sid);
      } catch {
        cache.clear();
      }
    }),
  ]);
}

import { IdentityClient } from '@patchbay/contracts';
import type { Logger } from 'pino';
import type { Bus } from '../bus/port';
import { errorMessage } from '../basics/error-fields';
import { quietly } from '../tracing/quiet';

/**
 * Runs `ensure` for every partner identity knows, in the background, once per start. The
 * `evt.partner.created` handlers already do this per partner; the backfill covers partners whose
 * event this service never saw (a data directory older than the service, or the in-process bus,
 * whose event history does not survive a restart). `ensure` must be idempotent. While identity does
 * not answer it retries every `retryMs`; `stop()` ends it.
 */
export function backfillPartners(
  bus: Bus,
  ensure: (partnerSid: string) => Promise<unknown>,
  log: Logger,
  retryMs = 5000,
): { stop(): void; done: Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const identity = new IdentityClient(bus, { timeoutMs: 10000 });
  const pass = async (): Promise<number> => {
    let after: string | null = null;
    let count = 0;
    for (;;) {
      const { partner_sids: sids } = await identity.partnerSids(after, 500);
      for (const sid of sids) {
        if (stopped) return count;
        await ensure(sid);
        count += 1;
      }
      if (sids.length < 500) return count;
      after = sids[sids.length - 1];
    }
  };
  const done = new Promise<void>((resolve) => {
    const attempt = () => {
      if (stopped) return resolve();
      // Start-up housekeeping (usually nothing to do: the partner events did it): no trace of its own.
      quietly(pass).then(
        (n) => {
          log.info({ partners: n }, 'partner backfill done');
          resolve();
        },
        (err: unknown) => {
          log.warn({ err: errorMessage(err) }, 'partner backfill: identity not reachable yet, retrying');
          timer = setTimeout(attempt, retryMs);
          timer.unref();
        },
      );
    };
    attempt();
  });
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    done,
  };
}

import { BlobStoreUnavailableError } from '@patchbay/platform';

/**
 * The one limit on what storage asks of a partner's external storage while a request waits: all of
 * it together (the probe of a container create or update, the delete of a file's object) may take
 * this share of BUS_TIMEOUT_MS. The rest is left for the request's own work and the way back, so the
 * caller always gets storage's own answer (a 422, a 2xx), never the gateway's 504, and the gateway's
 * circuit breaker, which counts timeouts, never sees a slow third-party endpoint as storage down.
 */
export const EXTERNAL_SHARE_OF_BUS_TIMEOUT = 0.6;

/** The milliseconds a request's external storage calls may take in all (EXTERNAL_SHARE_OF_BUS_TIMEOUT). */
export function externalDeadlineMs(busTimeoutMs: number): number {
  return Math.floor(busTimeoutMs * EXTERNAL_SHARE_OF_BUS_TIMEOUT);
}

/**
 * A request's deadline for its external storage calls, started when the request is taken up. `race`
 * gives up on a call when it passes (the call may still settle later, unobserved: only what comes
 * after `race` in the request is abandoned, so nothing is written once the caller has its answer);
 * `expired` says whether a write that follows would come too late.
 */
export class Deadline {
  private readonly at: number;

  constructor(readonly ms: number) {
    this.at = Date.now() + ms;
  }

  remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }

  get expired(): boolean {
    return Date.now() >= this.at;
  }

  /** `op`, or a BlobStoreUnavailableError('timeout') once the deadline has passed. */
  async race<T>(op: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new BlobStoreUnavailableError({ reason: 'timeout', message: 'the storage did not answer in time' })),
        this.remainingMs(),
      );
    });
    op.catch(() => undefined); // settled after the deadline: nobody waits for it any more
    try {
      return await Promise.race([op, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

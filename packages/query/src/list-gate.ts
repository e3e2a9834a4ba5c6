import { TooManyRequestsError, UnavailableError, errorItem } from '@patchbay/contracts';
import { MAX_LIMIT } from './params';

/** How a service bounds the large lists it builds at once (LIST_LARGE_* settings). */
export interface ListGateLimits {
  /** A list asking for more items than this is large (LIST_LARGE_LIMIT); smaller ones always pass. */
  largeOver: number;
  /** Large lists one partner may have in progress at once (LIST_LARGE_PER_PARTNER). */
  perPartner: number;
  /** Large lists the service has in progress at once, every partner together (LIST_LARGE_TOTAL). */
  total: number;
}

/** Seconds a refused list is told to wait: a large page takes well under a second to build and send. */
const RETRY_AFTER_S = 1;

/**
 * Bounds the large lists a service builds and sends at once, per partner and in total, so one
 * partner asking for many pages of 1,000 items at once cannot take the service's memory, its time,
 * or other partners' turn. A large list in progress holds a slot from before the store is read
 * until its reply has left the process (`MessageContext.replied`: its chunks taken by the
 * gateway), since the reply's bytes are what a page costs most; a list that fails lets its slot
 * go at once. Past a partner's share the list is refused with 429 naming `limit` (a smaller page
 * still goes); past the service's total, with 503: both with Retry-After, before any work is done.
 * Lists of `largeOver` items or fewer are never counted or refused.
 */
export class ListGate {
  private inProgress = 0;
  private readonly byPartner = new Map<string, number>();

  constructor(private readonly limits: ListGateLimits) {}

  /**
   * Runs `work` (the list of `limit` items for `partner`) when it is small or a slot is free,
   * keeping the slot until `replied` settles (without it: until `work` ends).
   */
  async run<T>(partner: string, limit: number, replied: Promise<void> | undefined, work: () => Promise<T>): Promise<T> {
    if (limit <= this.limits.largeOver) return work();
    const leave = this.enter(partner);
    let built = false;
    try {
      const out = await work();
      built = true;
      return out;
    } finally {
      if (built && replied) void replied.then(leave, leave);
      else leave();
    }
  }

  /** Large lists in progress now (all partners), for tests and metrics. */
  get active(): number {
    return this.inProgress;
  }

  private enter(partner: string): () => void {
    const { largeOver, perPartner, total } = this.limits;
    const mine = this.byPartner.get(partner) ?? 0;
    if (mine >= perPartner)
      throw new TooManyRequestsError({
        retryAfterSeconds: RETRY_AFTER_S,
        message: 'too many large lists at once',
        errors: [
          errorItem(
            `at most ${perPartner} lists of more than ${largeOver} items may be in progress at once for a partner; ` +
              `try again after Retry-After, or ask for ${largeOver} or fewer`,
            'limit',
          ),
        ],
      });
    if (this.inProgress >= total)
      throw new UnavailableError({
        message: `the service is already building ${total} lists of more than ${largeOver} items; try again shortly`,
        retryAfterSeconds: RETRY_AFTER_S,
      });
    this.inProgress += 1;
    this.byPartner.set(partner, mine + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inProgress -= 1;
      const now = (this.byPartner.get(partner) ?? 1) - 1;
      if (now === 0) this.byPartner.delete(partner);
      else this.byPartner.set(partner, now);
    };
  }
}

/**
 * The `limit` a list request asks for: its `limit` parameter when that is a valid one, else
 * `defaultLimit`. For ListGate only, before the parameters are checked; an invalid `limit` is
 * still the 400 that runList answers.
 */
export function requestedLimit(query: Record<string, unknown>, defaultLimit: number): number {
  const raw = query.limit;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_LIMIT ? n : defaultLimit;
}

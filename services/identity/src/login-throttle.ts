import { TooManyRequestsError, UnauthorizedError, errorItem } from '@patchbay/contracts';
import { compareAndSet, type Collection, type Logger } from '@patchbay/platform';
import {
  NO_ATTEMPTS,
  afterFailure,
  failureDelayMs,
  lockRemainingMs,
  retryAfterSeconds,
  type AttemptState,
  type ThrottlePolicy,
} from './domain/login-throttle';
import type { LoginAttemptDoc } from './domain/documents';

/** Who is trying: the login named, and the client address the gateway saw (null when unknown). */
export interface LoginAttempt {
  login: string;
  address: string | null;
}

/**
 * Throttles password checks (HTTP Basic and the password grant) by login and by client address,
 * with counters in identity's own store — so every gateway replica, and every identity replica on
 * a shared MongoDB, counts the same failures. The rules are in domain/login-throttle.ts.
 */
export class LoginThrottle {
  private readonly log: Logger;

  constructor(
    private readonly attempts: Collection<LoginAttemptDoc>,
    private readonly policies: { login: ThrottlePolicy; address: ThrottlePolicy },
    logger: Logger,
  ) {
    this.log = logger.child({ mod: 'login-throttle' });
  }

  /**
   * Runs `check` (the password check: the principal, or null when it fails) unless the login or
   * the address is locked (429 with Retry-After, without checking). A success clears the login's
   * failures; a failure is counted for both and answered 401, later when the login keeps failing.
   */
  async guard<T>(who: LoginAttempt, check: () => Promise<T | null>): Promise<T> {
    const keys = this.keysOf(who);
    const now = new Date();
    const locked = Math.max(
      ...(await Promise.all(
        keys.map(async ([key]) => lockRemainingMs(stateOf(await this.attempts.findOne({ key })), now)),
      )),
    );
    if (locked > 0) {
      this.log.info({ login: who.login, address: who.address }, 'login refused: locked after repeated failures');
      throw new TooManyRequestsError({
        retryAfterSeconds: retryAfterSeconds(locked),
        message: 'too many failed logins',
        errors: [errorItem('too many failed logins; try again after the time in Retry-After', 'login')],
      });
    }
    const result = await check();
    if (result !== null) {
      await this.attempts.deleteOne({ key: keys[0][0] });
      return result;
    }
    const after = await Promise.all(keys.map(([key, policy]) => this.recordFailure(key, policy, now)));
    const newlyLocked = keys.filter(
      (_, i) => after[i].locked_until && after[i].locked_until!.getTime() > now.getTime() && after[i].failures === 0,
    );
    if (newlyLocked.length > 0)
      this.log.warn(
        { login: who.login, address: who.address, locked: newlyLocked.map(([k]) => k.split(':')[0]) },
        'repeated failed logins: locked',
      );
    const delay = failureDelayMs(after[0], this.policies.login);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    throw new UnauthorizedError({ code: 'bad_credentials' });
  }

  /** Forgets counters whose window and lock are both over (run periodically). */
  async forgetExpired(now = new Date()): Promise<number> {
    return this.attempts.deleteMany({ expires_at: { $lt: now } });
  }

  private keysOf(who: LoginAttempt): Array<[string, ThrottlePolicy]> {
    const keys: Array<[string, ThrottlePolicy]> = [[`login:${who.login}`, this.policies.login]];
    if (who.address) keys.push([`address:${who.address}`, this.policies.address]);
    return keys;
  }

  private async recordFailure(key: string, policy: ThrottlePolicy, now: Date): Promise<AttemptState> {
    await this.attempts.findOneAndUpdate({ key }, { $inc: { failures: 0 } }, { upsert: true });
    const { after } = await compareAndSet(this.attempts, { key }, (doc) => {
      const next = afterFailure(stateOf(doc), now, policy);
      const until = Math.max(
        next.window_start ? next.window_start.getTime() : 0,
        next.locked_until ? next.locked_until.getTime() : 0,
      );
      return { $set: { ...next, expires_at: new Date(until + policy.windowMs) } };
    });
    return stateOf(after);
  }
}

function stateOf(doc: LoginAttemptDoc | null): AttemptState {
  if (!doc) return NO_ATTEMPTS;
  const date = (d: Date | string | null | undefined) => (d ? new Date(d) : null);
  return {
    failures: doc.failures ?? 0,
    window_start: date(doc.window_start),
    locked_until: date(doc.locked_until),
    locks: doc.locks ?? 0,
  };
}

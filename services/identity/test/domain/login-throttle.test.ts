import {
  NO_ATTEMPTS,
  afterFailure,
  failureDelayMs,
  lockRemainingMs,
  retryAfterSeconds,
  type AttemptState,
  type ThrottlePolicy,
} from '../../src/domain/login-throttle';

const policy: ThrottlePolicy = {
  maxFailures: 3,
  windowMs: 60_000,
  lockMs: 10_000,
  maxLockMs: 35_000,
  slowMs: 100,
  maxSlowMs: 150,
};
const at = (ms: number) => new Date(1_700_000_000_000 + ms);
const fail = (s: AttemptState, ms: number) => afterFailure(s, at(ms), policy);

test('failures inside the window add up and lock the key at maxFailures; the count starts again', () => {
  let s = fail(NO_ATTEMPTS, 0);
  s = fail(s, 1000);
  expect(s).toMatchObject({ failures: 2, locked_until: null });
  expect(lockRemainingMs(s, at(1000))).toBe(0);
  s = fail(s, 2000);
  expect(s).toMatchObject({ failures: 0, locks: 1 });
  expect(lockRemainingMs(s, at(2000))).toBe(10_000);
  expect(lockRemainingMs(s, at(11_999))).toBe(1);
  expect(lockRemainingMs(s, at(12_000))).toBe(0);
});

test('failures further apart than the window do not add up', () => {
  let s = fail(NO_ATTEMPTS, 0);
  s = fail(s, 1000);
  s = fail(s, 62_000);
  expect(s).toMatchObject({ failures: 1, locked_until: null });
});

test('locks that follow one another double, up to maxLockMs; a lock long over resets the doubling', () => {
  let s: AttemptState = NO_ATTEMPTS;
  let t = 0;
  const lockAgain = () => {
    for (let i = 0; i < 3; i++) s = fail(s, (t += 1));
    const d = lockRemainingMs(s, at(t));
    t += d;
    return d;
  };
  expect(lockAgain()).toBe(10_000);
  expect(lockAgain()).toBe(20_000);
  expect(lockAgain()).toBe(35_000);
  expect(lockAgain()).toBe(35_000);
  t += 61_000; // a whole window after the last lock ended
  expect(lockAgain()).toBe(10_000);
});

test('a login is slowed from its second failure, doubling up to maxSlowMs; never before', () => {
  expect(failureDelayMs(fail(NO_ATTEMPTS, 0), policy)).toBe(0);
  const two = fail(fail(NO_ATTEMPTS, 0), 1);
  expect(failureDelayMs(two, policy)).toBe(100);
  expect(failureDelayMs({ ...two, failures: 3 }, policy)).toBe(150);
  expect(failureDelayMs(two, { ...policy, slowMs: 0 })).toBe(0);
});

test('Retry-After is whole seconds, at least one', () => {
  expect(retryAfterSeconds(1)).toBe(1);
  expect(retryAfterSeconds(1000)).toBe(1);
  expect(retryAfterSeconds(1001)).toBe(2);
  expect(retryAfterSeconds(59_500)).toBe(60);
});

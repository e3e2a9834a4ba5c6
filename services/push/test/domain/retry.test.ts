import { again, done, type AttemptOutcome } from '../../src/domain/outcome';
import { backoffDelay, deliverWithRetries, withTimeout } from '../../src/domain/retry';

const targets = ['a', 'b', 'c'].map((device_sid) => ({ device_sid }));

describe('backoffDelay', () => {
  test('doubles per retry between half and all of the cap, never above maxDelayMs', () => {
    const policy = { maxRetries: 5, baseMs: 100, maxDelayMs: 350 };
    expect(backoffDelay(policy, 1, () => 0)).toBe(50);
    expect(backoffDelay(policy, 1, () => 1)).toBe(100);
    expect(backoffDelay(policy, 2, () => 0)).toBe(100);
    expect(backoffDelay(policy, 3, () => 1)).toBe(350);
  });
});

describe('deliverWithRetries', () => {
  const sleeps: number[] = [];
  const opts = {
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
    random: () => 1,
  };
  beforeEach(() => {
    sleeps.length = 0;
  });

  test('retries only the transient devices, with growing delays, until they succeed', async () => {
    const seen: string[][] = [];
    let round = 0;
    const result = await deliverWithRetries(
      targets,
      async (pending) => {
        seen.push(pending.map((t) => t.device_sid));
        round++;
        return new Map<string, AttemptOutcome>(
          pending.map((t) => [
            t.device_sid,
            t.device_sid === 'a'
              ? done('success')
              : t.device_sid === 'b'
                ? done('unregistered')
                : round < 3
                  ? again('503')
                  : done('success'),
          ]),
        );
      },
      { maxRetries: 3, baseMs: 10 },
      Date.now() + 60_000,
      opts,
    );
    expect(seen).toEqual([['a', 'b', 'c'], ['c'], ['c']]);
    expect(sleeps).toEqual([10, 20]);
    expect(Object.fromEntries(result)).toEqual({ a: 'success', b: 'unregistered', c: 'success' });
  });

  test(
    'gives up as provider_error when retries run out or the deadline would ' +
      'pass; unanswered devices count as transient',
    async () => {
      let calls = 0;
      const always = async () => {
        calls++;
        return new Map<string, AttemptOutcome>([['a', again('500')]]);
      };
      const reported: Array<[string[], string]> = [];
      const out = await deliverWithRetries(targets, always, { maxRetries: 2, baseMs: 1 }, Date.now() + 60_000, {
        ...opts,
        onProviderError: (sids, detail) => reported.push([sids, detail]),
      });
      expect(calls).toBe(3);
      expect(Object.fromEntries(out)).toEqual({ a: 'provider_error', b: 'provider_error', c: 'provider_error' });
      expect(reported).toEqual([[['a', 'b', 'c'], '500 (gave up after 3 attempts)']]);
      calls = 0;
      await deliverWithRetries(targets, always, { maxRetries: 5, baseMs: 1000 }, Date.now() + 500, opts);
      expect(calls).toBe(1);
    },
  );

  test(
    "a provider's Retry-After longer than the backoff sets the delay; one " + 'past the deadline ends the retries',
    async () => {
      let round = 0;
      const quota = async (pending: typeof targets) => {
        round++;
        return new Map<string, AttemptOutcome>(
          pending.map((t) => [t.device_sid, round === 1 ? again('429 QUOTA_EXCEEDED', 2000) : done('success')]),
        );
      };
      const out = await deliverWithRetries(targets, quota, { maxRetries: 3, baseMs: 10 }, Date.now() + 60_000, opts);
      expect(sleeps).toEqual([2000]);
      expect([...out.values()]).toEqual(['success', 'success', 'success']);
      round = 0;
      sleeps.length = 0;
      const late = await deliverWithRetries(targets, quota, { maxRetries: 3, baseMs: 10 }, Date.now() + 1500, opts);
      expect(sleeps).toEqual([]);
      expect([...late.values()]).toEqual(['provider_error', 'provider_error', 'provider_error']);
    },
  );
});

describe('withTimeout', () => {
  test('the fallback when the promise is late; the value when it is not', async () => {
    expect(await withTimeout(new Promise((r) => setTimeout(() => r('late'), 200)), 10, () => 'fallback')).toBe(
      'fallback',
    );
    expect(await withTimeout(Promise.resolve('on time'), 1000, () => 'fallback')).toBe('on time');
  });
});

import { nextAttemptDelayMs, signCallback, verifyCallback } from '../../src/domain/callback-signature';

test('a signature verifies with its key and content only', () => {
  const header = signCallback('k3y', '{"a":1}', 1_700_000_000);
  expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
  expect(verifyCallback('k3y', '{"a":1}', header)).toBe(true);
  expect(verifyCallback('k3y', '{"a":2}', header)).toBe(false);
  expect(verifyCallback('other', '{"a":1}', header)).toBe(false);
  expect(verifyCallback('k3y', '{"a":1}', header.replace('t=1700000000', 't=1700000001'))).toBe(false);
  expect(verifyCallback('k3y', '{"a":1}', 'garbage')).toBe(false);
});

test('retries back off: doubling from the base, at most ten minutes', () => {
  expect([1, 2, 3, 4].map((n) => nextAttemptDelayMs(n, 5000))).toEqual([5000, 10000, 20000, 40000]);
  expect(nextAttemptDelayMs(30, 5000)).toBe(600_000);
});

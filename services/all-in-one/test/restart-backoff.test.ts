import { RestartBackoff } from '../src/restart-backoff';

test('1 s, doubling for each quick exit up to 30 s, back to 1 s after a minute up', () => {
  const b = new RestartBackoff();
  expect([1, 2, 3, 4, 5, 6, 7].map(() => b.next(500))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  expect(b.next(60000)).toBe(1000);
  expect(b.next(59000)).toBe(2000);
});

import { expireJobId, msToNextWindow, sweepJobId, windowOf } from '../../src/domain/windows';

describe('tick windows', () => {
  test('every moment of a window gives the same number, and the job IDs built from it', () => {
    const start = 1_700_000_100_000; // a multiple of 300 s
    expect(windowOf(start, 300_000)).toBe(windowOf(start + 299_999, 300_000));
    expect(windowOf(start + 300_000, 300_000)).toBe(windowOf(start, 300_000) + 1);
    expect(sweepJobId('c1', 7)).toBe('sweep:c1:7');
    expect(expireJobId(7)).toBe('expire:7');
  });

  test('the next window starts after the rest of this one', () => {
    expect(msToNextWindow(1000, 1000)).toBe(1000);
    expect(msToNextWindow(1250, 1000)).toBe(750);
  });
});

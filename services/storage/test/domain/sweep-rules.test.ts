import {
  holdsLease,
  leaseAvailable,
  overTarget,
  sweepDue,
  withoutCountedFile,
  type SweepFields,
} from '../../src/domain/sweep-rules';

const lru = (over: Partial<SweepFields> = {}): SweepFields => ({
  threshold_action: 'delete_lru',
  threshold_files: 10,
  threshold_bytes: null,
  threshold_files_target: 5,
  threshold_bytes_target: null,
  threshold_total_files: 0,
  threshold_total_bytes: 0,
  ...over,
});

describe('delete_lru sweep rules', () => {
  test('a sweep is judged by what its deletion left: files uploaded meanwhile do not extend it', () => {
    const before = lru({ threshold_total_files: 6, threshold_total_bytes: 600, sweep_pending: true });
    expect(withoutCountedFile(before, 100)).toMatchObject({ threshold_total_files: 5, threshold_total_bytes: 500 });
    expect(sweepDue(withoutCountedFile(before, 100))).toBe(false);
    // The same container with three uploads landed during that deletion: still pending and over target…
    expect(sweepDue({ ...before, threshold_total_files: 8 })).toBe(true);
    // …but below its threshold (10), so only reaching it again starts a new sweep.
    expect(sweepDue({ ...before, threshold_total_files: 8, sweep_pending: false })).toBe(false);
  });

  test('over target: either count above its target; an unset target never counts', () => {
    expect(overTarget(lru({ threshold_total_files: 6 }))).toBe(true);
    expect(overTarget(lru({ threshold_total_files: 5 }))).toBe(false);
    const bytes = { threshold_bytes: 1000, threshold_bytes_target: 600 };
    expect(overTarget(lru({ ...bytes, threshold_total_files: 1, threshold_total_bytes: 601 }))).toBe(true);
    expect(overTarget(lru({ ...bytes, threshold_total_files: 5, threshold_total_bytes: 600 }))).toBe(false);
    expect(overTarget(lru({ threshold_files_target: null, threshold_total_files: 1e6 }))).toBe(false);
  });

  test('a sweep starts at the threshold and, once started (pending), goes on down to the target', () => {
    expect(sweepDue(lru({ threshold_total_files: 9 }))).toBe(false);
    expect(sweepDue(lru({ threshold_total_files: 10 }))).toBe(true);
    expect(sweepDue(lru({ threshold_total_files: 9, sweep_pending: true }))).toBe(true);
    expect(sweepDue(lru({ threshold_total_files: 5, sweep_pending: true }))).toBe(false);
    expect(
      sweepDue(
        lru({ threshold_bytes: 100, threshold_bytes_target: 50, threshold_total_files: 1, threshold_total_bytes: 100 }),
      ),
    ).toBe(true);
  });

  test('only delete_lru containers are ever due', () => {
    for (const action of ['reject', 'no_action'])
      expect(sweepDue(lru({ threshold_action: action, threshold_total_files: 50, sweep_pending: true }))).toBe(false);
  });

  test("the lease: free, expired or already the owner's can be taken; only a live one is held", () => {
    const now = new Date('2024-01-01T00:00:10Z');
    const held = lru({ sweep_owner: 'a', sweep_lease_until: new Date('2024-01-01T00:00:20Z') });
    const expired = lru({ sweep_owner: 'a', sweep_lease_until: new Date('2024-01-01T00:00:10Z') });
    expect(leaseAvailable(lru(), 'b', now)).toBe(true);
    expect(leaseAvailable(held, 'a', now)).toBe(true);
    expect(leaseAvailable(held, 'b', now)).toBe(false);
    expect(leaseAvailable(expired, 'b', now)).toBe(true);
    expect(holdsLease(held, 'a', now)).toBe(true);
    expect(holdsLease(held, 'b', now)).toBe(false);
    expect(holdsLease(expired, 'a', now)).toBe(false);
  });
});

import type { SweepContainerState } from '@patchbay/contracts';
import { thresholdReached } from './container-rules';

/**
 * The delete_lru rules, as plain functions of a container document.
 *
 * A sweep starts when a threshold is reached and goes on until both counts are at or below their
 * targets — with hysteresis: a container between target and threshold is swept only if a sweep of
 * it is unfinished (`sweep_pending`, kept on the container so a crash, a restart or a stop does not
 * forget it). One sweeper at a time holds the container's lease (`sweep_owner` until
 * `sweep_lease_until`); a crashed holder's lease simply expires.
 */
export interface SweepFields {
  threshold_action: string;
  threshold_files: number | null;
  threshold_bytes: number | null;
  threshold_files_target: number | null;
  threshold_bytes_target: number | null;
  threshold_total_files: number;
  threshold_total_bytes: number;
  sweep_pending?: boolean | null;
  sweep_owner?: string | null;
  sweep_lease_until?: Date | null;
}

/** A count is above its target. A target without a count limit set is ignored. */
export function overTarget(c: SweepFields): boolean {
  return (
    (c.threshold_files_target !== null && c.threshold_total_files > c.threshold_files_target) ||
    (c.threshold_bytes_target !== null && c.threshold_total_bytes > c.threshold_bytes_target)
  );
}

/**
 * The counts as one deletion of a counted file of `size` bytes left them, whatever landed beside it:
 * a sweep is judged by what it deleted, so uploads arriving during its last deletion do not extend it
 * (they start a sweep of their own only by reaching the threshold again).
 */
export function withoutCountedFile<C extends SweepFields>(c: C, size: number): C {
  return {
    ...c,
    threshold_total_files: c.threshold_total_files - 1,
    threshold_total_bytes: c.threshold_total_bytes - size,
  };
}

/**
 * The next least recently used file should be deleted: a delete_lru sweep started (or starts now) and a count is over
 * target.
 */
export function sweepDue(c: SweepFields): boolean {
  return c.threshold_action === 'delete_lru' && (thresholdReached(c) || c.sweep_pending === true) && overTarget(c);
}

/** Whether `owner` may take (or keep) the container's lease at `now`. */
export function leaseAvailable(c: SweepFields, owner: string, now: Date): boolean {
  return (
    !c.sweep_owner ||
    c.sweep_owner === owner ||
    !c.sweep_lease_until ||
    new Date(c.sweep_lease_until).getTime() <= now.getTime()
  );
}

/** Whether `owner` holds a live lease at `now`. */
export function holdsLease(c: SweepFields, owner: string, now: Date): boolean {
  return c.sweep_owner === owner && !!c.sweep_lease_until && new Date(c.sweep_lease_until).getTime() > now.getTime();
}

/** What the worker is told about a container. */
export function sweepState(c: SweepFields & { container_sid: string; partner_sid: string }): SweepContainerState {
  return {
    container_sid: c.container_sid,
    partner_sid: c.partner_sid,
    threshold_files: c.threshold_files,
    threshold_bytes: c.threshold_bytes,
    threshold_files_target: c.threshold_files_target,
    threshold_bytes_target: c.threshold_bytes_target,
    threshold_total_files: c.threshold_total_files,
    threshold_total_bytes: c.threshold_total_bytes,
    over_target: sweepDue(c),
  };
}

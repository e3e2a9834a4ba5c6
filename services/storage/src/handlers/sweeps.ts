import {
  Subjects,
  type SweepCandidatesRequest,
  type SweepContainersRequest,
  type SweepDeleteRequest,
  type SweepExpiredRequest,
  type SweepReleaseRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { deleteExpiredFile, expiredFiles } from '../operations/file-expiry';
import { claimLruCandidates, containersDueLruSweep, deleteLruFile, releaseLruLease } from '../operations/lru-sweep';

/** The threshold-worker's requests: the delete_lru sweep (operations/lru-sweep.ts) and lifecycle expiry. */
export function sweepHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.sweepContainers]: (req: SweepContainersRequest) => containersDueLruSweep(ctx, req),
    [Subjects.storage.sweepCandidates]: (req: SweepCandidatesRequest) => claimLruCandidates(ctx, req),
    [Subjects.storage.sweepDelete]: (req: SweepDeleteRequest) =>
      req.reason === 'lru' ? deleteLruFile(ctx, req) : deleteExpiredFile(ctx, req),
    [Subjects.storage.sweepRelease]: (req: SweepReleaseRequest) => releaseLruLease(ctx, req),
    [Subjects.storage.sweepExpired]: (req: SweepExpiredRequest) => expiredFiles(ctx, req),
  };
}

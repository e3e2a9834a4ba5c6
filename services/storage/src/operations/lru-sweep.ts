import {
  BadRequestError,
  type SweepCandidatesReply,
  type SweepCandidatesRequest,
  type SweepContainersReply,
  type SweepContainersRequest,
  type SweepDeleteReply,
  type SweepDeleteRequest,
  type SweepReleaseRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import type { ContainerDoc, FileDoc } from '../domain/documents';
import { holdsLease, leaseAvailable, sweepDue, sweepState, withoutCountedFile } from '../domain/sweep-rules';
import { deleteFile } from './files';

/*
 * The threshold-worker's delete_lru sweep (`Subjects.storage.sweep*`). Storage owns the files, so the
 * worker deletes through these. Only the holder of a container's lease may delete by LRU, and each
 * deletion re-checks that the lease is still the caller's, the file still qualifies (same
 * date_last_accessed as listed, still counted) and the container is still over target — so nothing
 * is deleted twice or below target whatever the worker replicas do. Requests about one container
 * also run one at a time in this process (ctx.containerLocks: check-then-delete is atomic here).
 * The sweep's indexes are made with the others (repo.ts).
 */

/** Least recently used first; file_sid breaks ties, so the order is total and every sweeper sees the same one. */
const LRU_ORDER = { date_last_accessed: 1, file_sid: 1 } as const;
const CANDIDATE_FIELDS = { file_sid: 1, file_bytes: 1, date_last_accessed: 1 } as const;

/** One page of the delete_lru containers due a sweep. */
export async function containersDueLruSweep(
  ctx: StorageContext,
  req: SweepContainersRequest,
): Promise<SweepContainersReply> {
  const page = await ctx.repo.containers.find(
    { threshold_action: 'delete_lru', ...(req.after ? { container_sid: { $gt: req.after } } : {}) },
    { sort: { container_sid: 1 }, limit: req.limit },
  );
  return {
    container_sids: page.filter(sweepDue).map((c) => c.container_sid),
    next: page.length === req.limit ? page[page.length - 1].container_sid : null,
  };
}

/** Claims or renews the container's lease; its counts and a page of its least recently used files. */
export function claimLruCandidates(ctx: StorageContext, req: SweepCandidatesRequest): Promise<SweepCandidatesReply> {
  const { repo } = ctx;
  return ctx.containerLocks.run(req.container_sid, async () => {
    const c = await repo.containers.findOne({ container_sid: req.container_sid });
    if (!c || c.threshold_action !== 'delete_lru') {
      await forgetSweep(ctx, c);
      return { container: null, claimed: false, files: [] };
    }
    if (!sweepDue(c)) {
      if (c.sweep_pending && leaseAvailable(c, req.owner, new Date())) await finishSweep(ctx, c);
      return { container: sweepState(c), claimed: false, files: [] };
    }
    const now = new Date();
    if (!leaseAvailable(c, req.owner, now)) return { container: sweepState(c), claimed: false, files: [] };
    // Conditional, so two storage replicas (MongoDB) cannot both hand the lease out.
    const claimed = await repo.containers.updateOne(
      {
        container_sid: c.container_sid,
        $or: [{ sweep_owner: null }, { sweep_owner: req.owner }, { sweep_lease_until: { $lte: now } }],
      },
      {
        $set: {
          sweep_pending: true,
          sweep_owner: req.owner,
          sweep_lease_until: new Date(now.getTime() + req.lease_ms),
        },
      },
    );
    if (claimed.matchedCount === 0) return { container: sweepState(c), claimed: false, files: [] };
    const files = await repo.files.find(
      { container_sid: c.container_sid, threshold_include: true },
      { sort: LRU_ORDER, limit: req.limit, projection: CANDIDATE_FIELDS },
    );
    return {
      container: sweepState({ ...c, sweep_pending: true }),
      claimed: true,
      files: files.map((f) => ({
        file_sid: f.file_sid,
        file_bytes: f.file_bytes,
        date_last_accessed: new Date(f.date_last_accessed).toISOString(),
      })),
    };
  });
}

/** Deletes one listed file, if the caller still holds the lease and the file and container still qualify. */
export async function deleteLruFile(ctx: StorageContext, req: SweepDeleteRequest): Promise<SweepDeleteReply> {
  const { repo } = ctx;
  const { container_sid: containerSid, owner, date_last_accessed: seen } = req;
  if (!containerSid || !owner || !seen)
    throw BadRequestError.field('reason', 'an lru delete needs container_sid, owner and date_last_accessed');
  return ctx.containerLocks.run(containerSid, async () => {
    const now = new Date();
    const before = await repo.containers.findOne({ container_sid: containerSid });
    if (!before || before.threshold_action !== 'delete_lru') {
      await forgetSweep(ctx, before);
      return { deleted: false, file: null, container: null, holds_lease: false };
    }
    if (!holdsLease(before, owner, now))
      return { deleted: false, file: null, container: sweepState(before), holds_lease: false };
    if (!sweepDue(before)) {
      await finishSweep(ctx, before);
      return { deleted: false, file: null, container: sweepState(before), holds_lease: false };
    }
    const f = await repo.files.findOne({
      file_sid: req.file_sid,
      container_sid: containerSid,
      threshold_include: true,
      date_last_accessed: new Date(seen),
    });
    const deleted = f ? await deleteFile(ctx, f) : false;
    const after = (await repo.containers.findOne({ container_sid: containerSid })) ?? before;
    // Due only if both what this deletion left and what is there now say so (withoutCountedFile).
    const left = deleted && f ? withoutCountedFile(before, f.file_bytes) : after;
    const due = sweepDue(after) && sweepDue(left);
    const leaseMs = req.lease_ms ?? 30_000;
    // Renewed once half of it has run: a write per deletion would cost as much as the deletion's own.
    const leaseUntil = before.sweep_lease_until ? new Date(before.sweep_lease_until).getTime() : 0;
    const renew = leaseUntil - Date.now() < leaseMs / 2;
    if (due && renew)
      await repo.containers.updateOne(
        { container_sid: containerSid, sweep_owner: owner },
        { $set: { sweep_lease_until: new Date(Date.now() + leaseMs) } },
      );
    if (!due) await finishSweep(ctx, after);
    return { deleted, file: deleted && f ? deletedFileRef(f) : null, container: sweepState(after), holds_lease: due };
  });
}

/** Gives the container's lease back (the worker stops); the sweep stays pending if unfinished. */
export async function releaseLruLease(ctx: StorageContext, req: SweepReleaseRequest): Promise<{ released: boolean }> {
  const released = await ctx.repo.containers.updateOne(
    { container_sid: req.container_sid, sweep_owner: req.owner },
    { $set: { sweep_owner: null, sweep_lease_until: null } },
  );
  return { released: released.matchedCount > 0 };
}

/** What the worker is told of a deleted file. */
export function deletedFileRef(f: FileDoc) {
  return {
    file_sid: f.file_sid,
    container_sid: f.container_sid,
    partner_sid: f.partner_sid,
    file_bytes: f.file_bytes,
  };
}

/** Ends a container's sweep: no longer pending, lease given back. */
function finishSweep(ctx: StorageContext, c: ContainerDoc) {
  return ctx.repo.containers.updateOne(
    { container_sid: c.container_sid },
    { $set: { sweep_pending: false, sweep_owner: null, sweep_lease_until: null } },
  );
}

/** The container is gone or no longer delete_lru: an unfinished sweep of it is forgotten. */
async function forgetSweep(ctx: StorageContext, c: ContainerDoc | null): Promise<void> {
  if (c?.sweep_pending || c?.sweep_owner) await finishSweep(ctx, c);
}

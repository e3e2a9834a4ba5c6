import {
  Subjects,
  BadRequestError,
  type SweepCandidatesReply,
  type SweepContainersReply,
  type SweepDeleteReply,
  type SweepExpiredReply,
  type SweepContainersRequest,
  type SweepCandidatesRequest,
  type SweepDeleteRequest,
  type SweepReleaseRequest,
  type SweepExpiredRequest,
} from '@patchbay/contracts';
import type { BlobStore } from '@patchbay/platform';
import { holdsLease, leaseAvailable, sweepDue, sweepState, type SweepFields } from '../domain/sweep-rules';
import type { ContainerDoc, FileDoc, StorageRepo } from '../repo';
import { deleteFile } from './files';
import type { StorageContext } from './context';

/** Least recently used first; file_sid breaks ties, so the order is total and every sweeper sees the same one. */
const LRU_ORDER = { date_last_accessed: 1, file_sid: 1 } as const;
const CANDIDATE_FIELDS = { file_sid: 1, file_bytes: 1, date_last_accessed: 1 } as const;

/**
 * Indexes for the sweep. MongoDB answers the candidate query from the compound index alone
 * (equality prefix, then the sort order: no in-memory sort), and so does the embedded SQLite store from
 * its key columns. (The index set was chosen for the NeDB store before it, whose plans
 * bench/threshold-sweep.ts measured; it serves SQLite as well.)
 */
export async function ensureSweepIndexes(repo: StorageRepo): Promise<void> {
  await repo.files.createIndex({ container_sid: 1, threshold_include: 1, date_last_accessed: 1, file_sid: 1 });
  await repo.files.createIndex({ date_last_accessed: 1 });
}

/**
 * Internal requests of the threshold-worker (`Subjects.storage.sweep*`). Storage owns the files, so
 * the worker deletes through these. Only the holder of a container's lease may delete by LRU, and
 * each deletion re-checks that the lease is still the caller's, the file still qualifies (same
 * date_last_accessed as listed, still counted) and the container is still over target — so nothing
 * is deleted twice or below target whatever the worker replicas do. Requests about one container
 * also run one at a time in this process (which makes check-then-delete atomic here).
 */
export async function sweepHandlers(ctx: StorageContext, blobs: BlobStore) {
  const { repo } = ctx;
  await ensureSweepIndexes(repo);
  const lock = new KeyedLock();
  const container = async (sid: string) =>
    (await repo.containers.findOne({ container_sid: sid })) as (ContainerDoc & SweepFields) | null;

  /** Ends a container's sweep: no longer pending, lease given back. */
  const finish = (c: ContainerDoc) =>
    repo.containers.updateOne(
      { container_sid: c.container_sid },
      { $set: { sweep_pending: false, sweep_owner: null, sweep_lease_until: null } },
    );

  /** The container is gone or no longer delete_lru: an unfinished sweep of it is forgotten. */
  async function forget(c: (ContainerDoc & SweepFields) | null): Promise<void> {
    if (c?.sweep_pending || c?.sweep_owner) await finish(c);
  }

  async function deleteLru(req: SweepDeleteRequest): Promise<SweepDeleteReply> {
    const { container_sid: containerSid, owner, date_last_accessed: seen } = req;
    if (!containerSid || !owner || !seen)
      throw BadRequestError.field('reason', 'an lru delete needs container_sid, owner and date_last_accessed');
    return lock.run(containerSid, async () => {
      const now = new Date();
      const before = await container(containerSid);
      if (!before || before.threshold_action !== 'delete_lru') {
        await forget(before);
        return { deleted: false, file: null, container: null, holds_lease: false };
      }
      if (!holdsLease(before, owner, now))
        return { deleted: false, file: null, container: sweepState(before), holds_lease: false };
      if (!sweepDue(before)) {
        await finish(before);
        return { deleted: false, file: null, container: sweepState(before), holds_lease: false };
      }
      const f = await repo.files.findOne({
        file_sid: req.file_sid,
        container_sid: containerSid,
        threshold_include: true,
        date_last_accessed: new Date(seen),
      });
      const deleted = f ? await deleteFile(ctx, blobs, f) : false;
      const after = (await container(containerSid)) ?? before;
      const due = sweepDue(after);
      const leaseMs = req.lease_ms ?? 30_000;
      // Renewed once half of it has run: a write per deletion would cost as much as the deletion's own.
      const renew = new Date(before.sweep_lease_until!).getTime() - Date.now() < leaseMs / 2;
      if (due && renew)
        await repo.containers.updateOne(
          { container_sid: containerSid, sweep_owner: owner },
          { $set: { sweep_lease_until: new Date(Date.now() + leaseMs) } },
        );
      if (!due) await finish(after);
      return { deleted, file: deleted && f ? fileRef(f) : null, container: sweepState(after), holds_lease: due };
    });
  }

  return {
    [Subjects.storage.sweepContainers]: async (req: SweepContainersRequest): Promise<SweepContainersReply> => {
      const page = (await repo.containers.find(
        { threshold_action: 'delete_lru', ...(req.after ? { container_sid: { $gt: req.after } } : {}) },
        { sort: { container_sid: 1 }, limit: req.limit },
      )) as Array<ContainerDoc & SweepFields>;
      return {
        container_sids: page.filter(sweepDue).map((c) => c.container_sid),
        next: page.length === req.limit ? page[page.length - 1].container_sid : null,
      };
    },

    [Subjects.storage.sweepCandidates]: async (req: SweepCandidatesRequest): Promise<SweepCandidatesReply> => {
      return lock.run(req.container_sid, async () => {
        const c = await container(req.container_sid);
        if (!c || c.threshold_action !== 'delete_lru') {
          await forget(c);
          return { container: null, claimed: false, files: [] };
        }
        if (!sweepDue(c)) {
          if (c.sweep_pending && leaseAvailable(c, req.owner, new Date())) await finish(c);
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
    },

    [Subjects.storage.sweepDelete]: async (req: SweepDeleteRequest): Promise<SweepDeleteReply> => {
      if (req.reason === 'lru') return deleteLru(req);
      const f = await repo.files.findOne({ file_sid: req.file_sid, expires_at: { $lte: new Date() } });
      const deleted = f ? await deleteFile(ctx, blobs, f) : false;
      return { deleted, file: deleted && f ? fileRef(f) : null, container: null, holds_lease: false };
    },

    [Subjects.storage.sweepRelease]: async (req: SweepReleaseRequest) => {
      const released = await repo.containers.updateOne(
        { container_sid: req.container_sid, sweep_owner: req.owner },
        { $set: { sweep_owner: null, sweep_lease_until: null } },
      );
      return { released: released.matchedCount > 0 };
    },

    [Subjects.storage.sweepExpired]: async (req: SweepExpiredRequest): Promise<SweepExpiredReply> => {
      // A one-branch $or: a workaround for the NeDB store before SQLite (its sparse index on expires_at
      // held no Date key). Harmless now: MongoDB and SQLite both answer it from the index.
      const files = await repo.files.find(
        { $or: [{ expires_at: { $lte: new Date() } }] },
        {
          sort: { expires_at: 1, file_sid: 1 },
          limit: req.limit,
          projection: { file_sid: 1, container_sid: 1, expires_at: 1 },
        },
      );
      return {
        files: files.map((f) => ({
          file_sid: f.file_sid,
          container_sid: f.container_sid,
          expires_at: new Date(f.expires_at!).toISOString(),
        })),
      };
    },
  };
}

const fileRef = (f: FileDoc) => ({
  file_sid: f.file_sid,
  container_sid: f.container_sid,
  partner_sid: f.partner_sid,
  file_bytes: f.file_bytes,
});

/** Runs tasks one at a time per key (storage is one process: the embedded store is single-process by design). */
class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

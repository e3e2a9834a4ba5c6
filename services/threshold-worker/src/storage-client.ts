import {
  Subjects, unwrapReply,
  type SweepCandidatesReply, type SweepCandidatesRequest, type SweepContainersReply, type SweepDeleteReply, type SweepDeleteRequest,
  type SweepExpiredReply, type SweepReleaseRequest,
} from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

/**
 * The storage requests a sweep needs (`Subjects.storage.sweep*`), typed. Errors arrive as the typed
 * errors of the reply (unwrapReply); a storage that is down is an UnavailableError/TimeoutError.
 */
export class StorageClient {
  constructor(private readonly bus: Bus, private readonly timeoutMs: number) {}

  /** One page of the delete_lru containers due a sweep. */
  async containers(after: string | null, limit: number): Promise<SweepContainersReply> {
    return this.call(Subjects.storage.sweepContainers, { after, limit });
  }

  /** Claims or renews the container's lease; its counts and least recently used files. */
  async candidates(req: SweepCandidatesRequest): Promise<SweepCandidatesReply> {
    return this.call(Subjects.storage.sweepCandidates, req);
  }

  /** Deletes one file if it still qualifies; idempotent. */
  async delete(req: SweepDeleteRequest): Promise<SweepDeleteReply> {
    return this.call(Subjects.storage.sweepDelete, req);
  }

  async release(req: SweepReleaseRequest): Promise<void> {
    await this.call(Subjects.storage.sweepRelease, req);
  }

  /** Files whose lifecycle_ttl has passed, oldest expiry first. */
  async expired(limit: number): Promise<SweepExpiredReply> {
    return this.call(Subjects.storage.sweepExpired, { limit });
  }

  private async call<T>(subject: string, payload: unknown): Promise<T> {
    return unwrapReply<T>(await this.bus.request(subject, payload, { timeoutMs: this.timeoutMs }));
  }
}

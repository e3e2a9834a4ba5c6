import type { GatewayRequest, Principal } from '../gateway-request';
import type { Container } from '../schemas/container';
import type { PlaybackOpenReply, PlaybackOpenRequest, RecordingPrepareRequest } from '../schemas/media';
import {
  StorageRequests,
  type Opened,
  type Prepared,
  type PublicFile,
  type UploadCommitRequest,
  type UploadPrepareRequest,
  type ExportPrepareRequest,
} from '../messages/storage';
import type {
  SweepCandidatesReply,
  SweepCandidatesRequest,
  SweepContainersReply,
  SweepDeleteReply,
  SweepDeleteRequest,
  SweepExpiredReply,
  SweepReleaseRequest,
  UsageSnapshotReply,
  UsageSnapshotRequest,
} from '../messages/sweep';
import type { BusReply } from '../reply';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';
import { TableCaller } from './table-caller';

/**
 * What other services ask of storage, typed by StorageRequests (messages/storage.ts): the gateway's upload, download
 * and media steps, the file server's resolve, the threshold-worker's sweeps. Errors arrive as the
 * typed errors of the reply (unwrapReply); a storage that is down is
 * an UnavailableError/TimeoutError. `commit` hands back the raw reply: the gateway answers with it.
 */
export class StorageClient {
  private readonly caller: TableCaller<typeof StorageRequests>;

  constructor(bus: BusRequester, defaults: CallOptions = {}) {
    this.caller = new TableCaller(bus, StorageRequests, defaults);
  }

  prepare(req: UploadPrepareRequest, opts?: CallOptions): Promise<Prepared> {
    return this.caller.call(Subjects.storage.uploadPrepare, req, opts);
  }

  /** A record export's file about to stream in: into any of the partner's containers, an external one too. */
  exportPrepare(req: ExportPrepareRequest, opts?: CallOptions): Promise<Prepared> {
    return this.caller.call(Subjects.storage.exportPrepare, req, opts);
  }

  /** A pending upload whose bytes come before its fields (multipart with `data` first). */
  reserve(principal: Principal, opts?: CallOptions): Promise<Prepared> {
    return this.caller.call(Subjects.storage.uploadReserve, { principal }, opts);
  }

  /** The reply as storage sent it (201 and the File, or the error envelope). */
  commit(req: UploadCommitRequest, opts?: CallOptions): Promise<BusReply> {
    return this.caller.raw(Subjects.storage.uploadCommit, req, opts);
  }

  abort(principal: Principal, fileSid: string, opts?: CallOptions): Promise<{ aborted: boolean }> {
    return this.caller.call(Subjects.storage.uploadAbort, { principal, file_sid: fileSid }, opts);
  }

  /** Download by SID: what to stream (bumps date_last_accessed). */
  open(principal: Principal, fileSid: string, opts?: CallOptions): Promise<Opened> {
    const req: GatewayRequest = { principal, params: { file_sid: fileSid }, query: {}, body: null, url: '' };
    return this.caller.call(Subjects.storage.fileOpen, req, opts);
  }

  /** The public file server's `/f/<id>`: the published file, or 404. */
  resolvePublic(id: string, opts?: CallOptions): Promise<PublicFile> {
    return this.caller.call(Subjects.storage.fileResolvePublic, { id }, opts);
  }

  recordingPrepare(req: RecordingPrepareRequest, opts?: CallOptions): Promise<Prepared> {
    return this.caller.call(Subjects.storage.recordingPrepare, req, opts);
  }

  playbackOpen(req: PlaybackOpenRequest, opts?: CallOptions): Promise<PlaybackOpenReply> {
    return this.caller.call(Subjects.storage.playbackOpen, req, opts);
  }

  /** A container of the partner, as the API returns it (endpoint's reference check); 404 when not theirs. */
  checkContainer(partnerSid: string, containerSid: string, opts?: CallOptions): Promise<Container> {
    return this.caller.call(
      Subjects.storage.containerCheck,
      { partner_sid: partnerSid, container_sid: containerSid },
      opts,
    );
  }

  /** The partner's default container (a record export without `container_sid`). */
  defaultContainer(partnerSid: string, opts?: CallOptions): Promise<Container> {
    return this.caller.call(Subjects.storage.containerDefault, { partner_sid: partnerSid }, opts);
  }

  /** Deletes a caller's file, as `DELETE /storage/files/{file_sid}` does (a record export cancelled too late). */
  async deleteFile(principal: Principal, fileSid: string, opts?: CallOptions): Promise<void> {
    const req: GatewayRequest = { principal, params: { file_sid: fileSid }, query: {}, body: null, url: '' };
    await this.caller.call(Subjects.storage.fileDelete, req, opts);
  }

  /** The partner's file published under `uri` (a Voicemail greeting's check); 404 when there is none. */
  checkPublished(partnerSid: string, uri: string, opts?: CallOptions): Promise<{ file_sid: string }> {
    return this.caller.call(Subjects.storage.publishedCheck, { partner_sid: partnerSid, uri }, opts);
  }

  /** One page of the delete_lru containers due a sweep. */
  sweepContainers(after: string | null, limit: number, opts?: CallOptions): Promise<SweepContainersReply> {
    return this.caller.call(Subjects.storage.sweepContainers, { after, limit }, opts);
  }

  /** Claims or renews the container's lease; its counts and least recently used files. */
  sweepCandidates(req: SweepCandidatesRequest, opts?: CallOptions): Promise<SweepCandidatesReply> {
    return this.caller.call(Subjects.storage.sweepCandidates, req, opts);
  }

  /** Deletes one file if it still qualifies; idempotent. */
  sweepDelete(req: SweepDeleteRequest, opts?: CallOptions): Promise<SweepDeleteReply> {
    return this.caller.call(Subjects.storage.sweepDelete, req, opts);
  }

  async sweepRelease(req: SweepReleaseRequest, opts?: CallOptions): Promise<void> {
    await this.caller.call(Subjects.storage.sweepRelease, req, opts);
  }

  /** Writes one page of containers' usage snapshots of a UTC day. */
  usageSnapshot(req: UsageSnapshotRequest, opts?: CallOptions): Promise<UsageSnapshotReply> {
    return this.caller.call(Subjects.storage.usageSnapshot, req, opts);
  }

  /** Files whose lifecycle_ttl has passed, oldest expiry first. */
  sweepExpired(limit: number, opts?: CallOptions): Promise<SweepExpiredReply> {
    return this.caller.call(Subjects.storage.sweepExpired, { limit }, opts);
  }
}

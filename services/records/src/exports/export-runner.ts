import { randomUUID } from 'node:crypto';
import { ApiError, StorageClient } from '@patchbay/contracts';
import type { BlobStore, Bus, Logger } from '@patchbay/platform';
import type { ExportSettings } from '../config';
import type { ExportDoc } from '../domain/export-docs';
import { CALL_RECORDS, MESSAGE_RECORDS } from '../domain/record-kinds';
import type { RecordsRepo } from '../repo';
import { ClaimLoop } from '../background/claim-loop';
import { writeExport, type Heartbeat } from './export-writer';

/** How often the queue is looked at when nothing new was created here. */
const POLL_MS = 500;
/** Runs an export may begin (a crash or a passing failure each cost one) before it is failed. */
const MAX_RUNS = 5;
/** How often a run records its progress, renews its lease and looks for a cancel (ms). */
const BEAT_MS = 1000;
/** Delay before a run that failed for a passing reason is tried again: doubling from this. */
const RETRY_BASE_MS = 2000;

/** The run was stopped from outside: the export was cancelled, or another process holds it now. */
class ExportStopped extends Error {}

export interface ExportRunnerDeps {
  repo: RecordsRepo;
  bus: Bus;
  blobs: BlobStore;
  log: Logger;
  settings: ExportSettings;
  /** Called once an export has ended (done or failed): its callback is due. */
  ended: () => void;
}

/**
 * The durable job of record exports, kept in the store (`record_exports`): a queued export, or a
 * running one whose lease has run out (its process died), is claimed by one records process with a
 * lease it renews as each batch is written, and run from the start (a run never resumes mid-file:
 * the file is written only whole, so starting over is what "resume" means). Works the same in both
 * modes and across replicas, since the store is the queue: nothing is lost with a process
 * (the in-process bus keeps no jobs across a kill -9). A run that fails for a passing reason
 * (storage unreachable) is tried again with backoff, MAX_RUNS runs at most; one storage refuses (no
 * room, no such container) fails the export with the reason.
 */
export class ExportRunner {
  private readonly owner = randomUUID();
  private readonly loop: ClaimLoop<ExportDoc>;
  private readonly storage: StorageClient;

  constructor(private readonly deps: ExportRunnerDeps) {
    this.storage = new StorageClient(deps.bus, { timeoutMs: deps.settings.busTimeoutMs });
    this.loop = new ClaimLoop({
      name: 'records export run',
      pollMs: POLL_MS,
      concurrency: deps.settings.concurrency,
      claim: () => this.claim(),
      work: (doc) => this.run(doc),
      attributes: (doc) => ({ 'patchbay.export_sid': doc.export_sid }),
      log: deps.log,
    });
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for an export to run now (also called when one was just created), if there is room. */
  kick(): void {
    this.loop.kick();
  }

  /** Stops claiming; resolves once the runs in flight have ended (each stops at its next batch). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Claims one export due a run for this process (a lease), or null when none is. */
  private claim(): Promise<ExportDoc | null> {
    const now = new Date();
    return this.deps.repo.exports.findOneAndUpdate(
      {
        status: { $in: ['queued', 'running'] },
        $or: [{ lease_until: null }, { lease_until: { $lt: now } }],
      },
      {
        $set: { status: 'running', lease_owner: this.owner, lease_until: this.leaseEnd() },
        $inc: { runs: 1 },
      },
    );
  }

  private leaseEnd(): Date {
    return new Date(Date.now() + this.deps.settings.leaseMs);
  }

  /** The export is still this process's to run. */
  private mine(doc: ExportDoc) {
    return { export_sid: doc.export_sid, status: 'running' as const, lease_owner: this.owner };
  }

  private async run(doc: ExportDoc): Promise<void> {
    const { repo, log } = this.deps;
    const where = { export_sid: doc.export_sid, partner_sid: doc.partner_sid, run: doc.runs };
    if (doc.runs > MAX_RUNS) {
      // The last run's upload, if it died with one prepared, goes too (the stale-upload sweep is the backstop).
      if (doc.pending_file_sid) await this.storage.abort(doc.principal, doc.pending_file_sid).catch(() => undefined);
      await this.finish(doc, 'failed', { error: `gave up after ${MAX_RUNS} runs` });
      return;
    }
    const kind = doc.kind === 'call' ? CALL_RECORDS : MESSAGE_RECORDS;
    const records = doc.kind === 'call' ? repo.callDrs : repo.messageDrs;
    let lastBeat = 0;
    const beat: Heartbeat = async (p, final) => {
      if (this.stopped) throw new ExportStopped('the records service is stopping');
      // A store write per second at most: each may be a synced write (the embedded store on disk).
      if (!final && Date.now() - lastBeat < BEAT_MS) return;
      lastBeat = Date.now();
      const r = await repo.exports.updateOne(this.mine(doc), { $set: { ...p, lease_until: this.leaseEnd() } });
      if (r.matchedCount === 0) throw new ExportStopped('the export was cancelled or taken over');
    };
    const recordPending = async (fileSid: string) => {
      const r = await repo.exports.updateOne(this.mine(doc), { $set: { pending_file_sid: fileSid } });
      if (r.matchedCount === 0) throw new ExportStopped('the export was cancelled or taken over');
    };
    try {
      const file = await writeExport(
        {
          storage: this.storage,
          blobs: this.deps.blobs,
          records,
          kind,
          commitTimeoutMs: Math.max(this.deps.settings.busTimeoutMs, 150_000),
        },
        doc,
        recordPending,
        beat,
      );
      const done = await this.finish(doc, 'done', { file_sid: file.file_sid, bytes: file.file_bytes });
      if (!done) {
        // Cancelled between the commit and now: the file goes too, so a cancelled export leaves none.
        await this.storage
          .deleteFile(doc.principal, file.file_sid)
          .catch((err: unknown) =>
            log.warn({ ...where, file_sid: file.file_sid, err }, 'file of a cancelled export not deleted'),
          );
        return;
      }
      log.info({ ...where, file_sid: file.file_sid }, 'record export done');
    } catch (err) {
      if (err instanceof ExportStopped) {
        // Stopping: hand the export back at once, to this process restarted or another one.
        if (this.stopped)
          await repo.exports.updateOne(this.mine(doc), {
            $set: { lease_owner: null, lease_until: null },
            $inc: { runs: -1 },
          });
        log.info({ ...where, reason: err.message }, 'record export run stopped');
        return;
      }
      if (err instanceof ApiError && err.status < 500 && err.status !== 408 && err.status !== 429) {
        const field = err.toBody().errors[0]?.field;
        await this.finish(doc, 'failed', { error: field ? `${field}: ${err.message}` : err.message });
        log.warn({ ...where, reason: err.message }, 'record export failed');
        return;
      }
      const delay = RETRY_BASE_MS * 2 ** Math.max(0, doc.runs - 1);
      const reason = err instanceof Error ? err.message : String(err);
      log.warn({ ...where, reason, retry_in_ms: delay }, 'record export run failed; will run again');
      await repo.exports.updateOne(this.mine(doc), {
        $set: { lease_owner: null, lease_until: new Date(Date.now() + delay), error: null },
      });
    }
  }

  /** Ends the export (if it is still this process's: a cancel may have come first); false when it was not. */
  private async finish(
    doc: ExportDoc,
    status: 'done' | 'failed',
    fields: { file_sid?: string; bytes?: number; error?: string },
  ): Promise<boolean> {
    const now = new Date();
    const r = await this.deps.repo.exports.updateOne(this.mine(doc), {
      $set: {
        status,
        ...fields,
        ...(status === 'done' ? { progress: 100 } : {}),
        date_completed: now,
        lease_owner: null,
        lease_until: null,
        pending_file_sid: null,
        ...(doc.callback ? { 'callback.state': 'pending', 'callback.next_attempt_at': now } : {}),
      },
    });
    if (r.matchedCount === 0) return false;
    if (doc.callback) this.deps.ended();
    return true;
  }
}

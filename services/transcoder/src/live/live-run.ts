import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { COPY_RENEW_MS, UnavailableError, type CopyCacheClient, type TranscodeRequest } from '@patchbay/contracts';
import { errorMessage } from '@patchbay/platform';
import { forPeople, type JobDeps } from '../convert';
import { planOutput } from '../domain/output-plan';
import { FORMATS } from '../ffmpeg/formats';
import { probe } from '../ffmpeg/probe';
import { transcodePiped } from '../ffmpeg/transcode';
import { fetchBlob, storeBlob } from '../workspace';
import { fileOffset } from './file-offset';
import { GrowingFile } from './growing-file';

/** A listener that has not pulled for this long is gone (its file server died, or forgot to say). */
export const LISTENER_IDLE_MS = 10_000;
/** When every listener has gone, a run at least this far through its input still finishes into the cache. */
export const FINISH_ALONE_FROM = 0.5;

/** Where a run is: waiting for a slot, encoding, encoded (its bytes complete), or over without a copy. */
export type LiveState = 'waiting' | 'running' | 'ended' | 'failed';

export interface LiveRunDeps {
  /** Download-time work's limiter, scratch, timeout, blobs and niceness. */
  jobs: JobDeps;
  storage: CopyCacheClient;
  /** This replica's live subject, told to storage with each renewal (those who claim the copy join here). */
  subject: string;
  /** Aborted when the replica stops. */
  stopping: AbortSignal;
}

/**
 * One download-time copy made while it is sent (decisions §53): ffmpeg reads the source from the
 * blob store on stdin and writes the target to stdout; its output goes to a scratch file that
 * listeners read from any offset as it grows. The copy is stored under the claim only when ffmpeg
 * succeeded and every byte is in the file; a failed, cut or abandoned run stores nothing and gives
 * the claim back. The run holds its limiter slot from ffmpeg's start to its end.
 */
export class LiveRun {
  state: LiveState = 'waiting';
  failure: unknown = null;
  /** The run was stopped (its listeners all gone early, or the replica stopping), not failed. */
  stopped = false;
  private file: GrowingFile | null = null;
  private dir: string | null = null;
  private fed = 0;
  private total = 0;
  private readonly listeners = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly abort = new AbortController();
  private alone = false;
  /** Settles once ffmpeg has started (rejects when the run could not start: a full queue, a missing source). */
  readonly started: Promise<void>;
  /** Settles once the run is over, stored or not (never rejects). */
  readonly over: Promise<void>;

  constructor(
    readonly req: TranscodeRequest,
    private readonly deps: LiveRunDeps,
  ) {
    let markStarted!: () => void;
    let failStart!: (err: unknown) => void;
    this.started = new Promise<void>((resolve, reject) => {
      markStarted = resolve;
      failStart = reject;
    });
    // A start that fails is also the run's failure, told to its listeners: not an unhandled rejection.
    this.started.catch(() => undefined);
    this.over = this.run(markStarted).then(
      () => undefined,
      (err: unknown) => {
        this.fail(err);
        failStart(err);
      },
    );
  }

  get key(): string {
    return this.req.output_key;
  }

  /** `progress` as a whole percentage (100 once the copy is stored). */
  get percent(): number {
    return this.state === 'ended' ? 100 : Math.min(99, Math.floor(this.progress * 100));
  }

  /** How far through its input the run is (0–1). */
  get progress(): number {
    return this.total > 0 ? this.fed / this.total : 0;
  }

  /** Marks `listener` as listening now. */
  touch(listener: string): void {
    this.listeners.set(listener, Date.now());
  }

  /** `listener` has gone (its download was closed, or it read the end). */
  leave(listener: string): void {
    this.listeners.delete(listener);
    this.checkAbandoned();
  }

  /** Forgets listeners that stopped pulling; a run nobody listens to any more may be stopped. */
  sweep(now = Date.now()): void {
    // Listeners of a run waiting for its slot cannot pull yet: their answer is the start itself.
    if (this.state === 'waiting') return;
    for (const [id, seen] of this.listeners) if (now - seen > LISTENER_IDLE_MS) this.listeners.delete(id);
    this.checkAbandoned();
  }

  get listening(): number {
    return this.listeners.size;
  }

  /**
   * Up to `max` bytes from `offset`, waiting at most `waitMs` for some to come; `end` once ffmpeg
   * finished and the bytes reach its last. Rejects with the run's failure (a client's error).
   */
  async read(offset: number, max: number, waitMs: number): Promise<{ data: Buffer; end: boolean }> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (this.state === 'failed') throw this.failure;
      const file = this.file;
      if (file && offset < file.written) {
        const data = await file.read(offset, max);
        return { data, end: this.state === 'ended' && offset + data.length >= file.written };
      }
      if (this.state === 'ended') return { data: Buffer.alloc(0), end: true };
      const left = deadline - Date.now();
      if (left <= 0) return { data: Buffer.alloc(0), end: false };
      await this.changed(left);
    }
  }

  /** Removes the scratch file (the run must be over; listeners still reading get the end or a failure). */
  async dispose(): Promise<void> {
    await this.over;
    await this.file?.close().catch(() => undefined);
    if (this.dir) await fs.promises.rm(this.dir, { recursive: true, force: true });
  }

  private checkAbandoned(): void {
    if (this.listeners.size > 0 || this.state === 'ended' || this.state === 'failed' || this.alone) return;
    if (this.progress >= FINISH_ALONE_FROM) {
      this.alone = true;
      this.deps.jobs.log.info(
        { key: this.key, progress: Math.round(this.progress * 100) },
        'every listener of a streamed transcode has gone: finishing it into the cache',
      );
      return;
    }
    this.abort.abort(new DOMException('every listener has gone', 'AbortError'));
  }

  private changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private fail(err: unknown): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.failure = err;
    this.wake();
  }

  private async run(markStarted: () => void): Promise<void> {
    const { jobs, storage } = this.deps;
    const token = this.req.claim_token;
    const renew = () => {
      if (!token) return;
      storage.renew({ key: this.key, token, live: this.deps.subject }).catch((err: unknown) => {
        jobs.log.warn({ key: this.key, err: errorMessage(err) }, 'claim of a copy not renewed');
      });
    };
    const renewal = token ? setInterval(renew, COPY_RENEW_MS) : undefined;
    // Said at once when ffmpeg starts: those who claim the copy from now on join instead of waiting.
    this.started.then(renew, () => undefined);
    const signal = AbortSignal.any([this.abort.signal, this.deps.stopping]);
    try {
      await jobs.limiter.run(() => this.encodeAndStore(markStarted, signal), signal);
    } catch (err) {
      if (token) await storage.release({ key: this.key, token }).catch(() => undefined);
      if (!signal.aborted) throw err;
      this.stopped = true;
      jobs.log.info({ key: this.key, reason: errorMessage(signal.reason) }, 'streamed transcode stopped: no copy');
      // Stopping (ask another replica), or nobody listens any more: nobody is told more than that.
      throw new UnavailableError({ message: 'the transcode was stopped; ask again' });
    } finally {
      clearInterval(renewal);
    }
  }

  private async encodeAndStore(markStarted: () => void, signal: AbortSignal): Promise<void> {
    const { jobs } = this.deps;
    const req = this.req;
    const spec = FORMATS[req.target];
    this.dir = path.join(jobs.scratchDir, randomUUID());
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = await GrowingFile.create(path.join(this.dir, `output.${spec.extension}`), () => this.wake());
    this.file = file;
    try {
      await this.encode(this.dir, file, markStarted, signal);
    } catch (err) {
      throw signal.aborted ? signal.reason : forPeople(jobs.log, err, req, jobs.timeoutMs);
    }
    await file.flush();
    // The last bytes go out once the copy is stored: a download that has ended finds it for ranges.
    const size = await storeBlob(jobs.blobs, this.key, file.path, { durable: false });
    const token = req.claim_token;
    if (token)
      await this.deps.storage.stored({ key: this.key, token, size }).catch((err: unknown) => {
        jobs.log.warn({ key: this.key, err: errorMessage(err) }, 'stored copy not reported to storage');
      });
    this.state = 'ended';
    this.wake();
  }

  /**
   * ffmpeg from the source into `file`, probed first when a bitrate depends on it. ffmpeg reads a
   * local source file as its stdin itself (the directory store's object, or the probed copy): this
   * process moves none of those bytes, and `progress` is the file's offset. Other stores' bytes are
   * fed through a pipe and counted.
   */
  private async encode(dir: string, file: GrowingFile, markStarted: () => void, signal: AbortSignal): Promise<void> {
    const { jobs } = this.deps;
    const req = this.req;
    const spec = FORMATS[req.target];
    let plan = planOutput(req.target, null, { sampleRate: null, channels: null });
    let local: fs.promises.FileHandle | undefined;
    if (req.bitrate !== null && spec.bitrate) {
      // The encoder's settings depend on the source: probed first, from a local copy.
      const input = path.join(dir, 'input');
      await fetchBlob(jobs.blobs, req.blob_key, input, signal);
      plan = planOutput(req.target, req.bitrate, await probe(input, req.source_format, signal));
      local = await fs.promises.open(input, 'r');
    } else local = await jobs.blobs.openFile?.(req.blob_key);
    try {
      if (local && (await fileOffset(local.fd)) === null) {
        await local.close(); // no way to tell how far ffmpeg has read: fed by this process instead
        local = undefined;
      }
      const feed = local ? await this.fileFeed(local) : await this.streamFeed();
      this.state = 'running';
      // Listeners that joined while the run waited start their idle clock now.
      for (const id of this.listeners.keys()) this.touch(id);
      markStarted();
      try {
        await transcodePiped({
          input: feed.input,
          sourceFormat: req.source_format,
          target: req.target,
          plan,
          timeoutMs: jobs.timeoutMs,
          signal,
          nice: jobs.nice,
          onOutput: (chunk) => file.append(chunk),
          cwd: dir,
        });
      } finally {
        feed.end();
      }
    } finally {
      await local?.close();
    }
  }

  /** A local file ffmpeg reads itself; how far it has read is looked up four times a second. */
  private async fileFeed(local: fs.promises.FileHandle): Promise<Feed> {
    this.total = (await local.stat()).size;
    const timer = setInterval(() => {
      void fileOffset(local.fd).then((pos) => {
        if (pos !== null) this.fed = Math.max(this.fed, pos);
      });
    }, FILE_PROGRESS_MS);
    return { input: { descriptor: local.fd }, end: () => clearInterval(timer) };
  }

  /** The blob store's stream, piped to ffmpeg and counted as it goes. */
  private async streamFeed(): Promise<Feed> {
    const { blobs } = this.deps.jobs;
    this.total = (await blobs.stat(this.req.blob_key)).size;
    const source = await blobs.get(this.req.blob_key);
    const counted = source.pipe(
      new Transform({
        transform: (chunk: Buffer, _enc, done) => {
          this.fed += chunk.length;
          done(null, chunk);
        },
      }),
    );
    source.once('error', (err) => counted.destroy(err));
    return { input: counted, end: () => source.destroy() };
  }
}

/** What ffmpeg reads, and what to do once it has finished with it. */
interface Feed {
  input: Readable | { descriptor: number };
  end: () => void;
}

/** How often a run that ffmpeg reads from a local file looks up how far it has read. */
const FILE_PROGRESS_MS = 250;

import { randomUUID } from 'node:crypto';
import {
  CopyCacheClient,
  LIVE_PULL_BYTES,
  LIVE_SUBJECT_PREFIX,
  LivePullReplySchema,
  LivePullRequestSchema,
  NotFoundError,
  UnavailableError,
  type LivePullReply,
  type LivePullRequest,
  type LiveStartReply,
  type LiveStartRequest,
} from '@patchbay/contracts';
import { errorMessage, serveRequests, type Bus, type Subscription } from '@patchbay/platform';
import type { JobDeps } from '../convert';
import { FORMATS } from '../ffmpeg/formats';
import { LimiterFullError } from '../limiter';
import type { RunKind } from '../metrics';
import { LiveRun } from './live-run';

/** How long a pull waits for bytes before it is answered empty (the file server pulls again). */
const PULL_WAIT_MS = 2_000;
/** How often listeners that stopped pulling are looked for. */
const SWEEP_MS = 1_000;
/** An encoded run's scratch is kept this long for listeners still reading it, then removed. */
const LINGER_MS = 30_000;

export interface LiveRunsDeps {
  jobs: JobDeps;
  bus: Bus;
  stopping: AbortSignal;
  measured: <T>(kind: RunKind, work: () => Promise<T>) => Promise<T>;
  onCoalesced: () => void;
  /** A target that cannot be written to a pipe: made whole, as `transcode` makes it (download-copies.ts). */
  whole: (req: LiveStartRequest) => Promise<number>;
}

/**
 * This replica's streamed download-time copies (decisions §53): one LiveRun per output key, however
 * many listeners — a start for a copy already running here joins it, and a file server that finds
 * the copy `busy` at storage joins through the subject storage gives it. Listeners pull the bytes
 * on this replica's own subject. A run whose listeners have all gone is stopped unless it is past
 * half its input (then it finishes into the cache); an encoded run's scratch goes once its
 * listeners have read to the end, or after LINGER_MS.
 */
export class LiveRuns {
  readonly subject = `${LIVE_SUBJECT_PREFIX}.${randomUUID()}`;
  private readonly runs = new Map<string, LiveRun>();
  private readonly storage: CopyCacheClient;
  private readonly sweeper: NodeJS.Timeout;
  private subs: Subscription[] = [];

  constructor(private readonly deps: LiveRunsDeps) {
    this.storage = new CopyCacheClient(deps.bus, { timeoutMs: 5000 });
    this.sweeper = setInterval(() => {
      for (const run of this.runs.values()) run.sweep();
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  /** Serves this replica's pull subject. */
  async listen(): Promise<void> {
    const table = { [this.subject]: { request: LivePullRequestSchema, reply: LivePullReplySchema } };
    this.subs = await serveRequests(
      this.deps.bus,
      this.subject,
      table,
      { [this.subject]: (req: LivePullRequest) => this.pull(req) },
      this.deps.jobs.log,
    );
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all(this.subs.map((s) => s.stop()));
    await Promise.all([...this.runs.values()].map((r) => r.dispose()));
  }

  /** `svc.transcoder.media.stream`: where to pull the copy from, once ffmpeg has started. */
  async start(req: LiveStartRequest): Promise<LiveStartReply> {
    if (!FORMATS[req.target]?.streams) return { size: await this.deps.whole(req) };
    let run = this.runs.get(req.output_key);
    if (run && run.state !== 'failed') this.deps.onCoalesced();
    else run = this.begin(req);
    run.touch(req.listener);
    try {
      await run.started;
    } catch (err) {
      if (!(err instanceof LimiterFullError)) throw err;
      throw new UnavailableError({
        message: 'too many download-time transcodes are waiting; try again shortly',
        retryAfterSeconds: 5,
      });
    }
    return { live: this.subject };
  }

  private begin(req: LiveStartRequest): LiveRun {
    const { listener: _listener, ...transcode } = req;
    const run = new LiveRun(transcode, {
      jobs: this.deps.jobs,
      storage: this.storage,
      subject: this.subject,
      stopping: this.deps.stopping,
    });
    this.runs.set(req.output_key, run);
    // Timed and counted as any download-time run: aborted when stopped, failed when it stored nothing else.
    const outcome = async () => {
      await run.over;
      if (run.stopped) throw new DOMException('the run was stopped', 'AbortError');
      if (run.state === 'failed') throw run.failure;
    };
    void this.deps
      .measured('download', outcome)
      .catch(() => undefined)
      .then(() => this.retire(run));
    return run;
  }

  /** Once over: a failed run goes at once; an encoded one when read to the end by all, or after LINGER_MS. */
  private async retire(run: LiveRun): Promise<void> {
    if (run.state === 'ended') {
      const until = Date.now() + LINGER_MS;
      while (run.listening > 0 && Date.now() < until) await sleep(SWEEP_MS);
    }
    if (this.runs.get(run.key) === run) this.runs.delete(run.key);
    await run.dispose().catch((err: unknown) => {
      this.deps.jobs.log.warn({ key: run.key, err: errorMessage(err) }, 'scratch of a streamed transcode not removed');
    });
  }

  private async pull(req: LivePullRequest): Promise<LivePullReply> {
    const run = this.runs.get(req.key);
    if (!run) throw new NotFoundError({ message: 'this copy is not being made here any more' });
    if (req.leave) {
      run.leave(req.listener);
      return { data: '', end: true, progress: run.percent };
    }
    run.touch(req.listener);
    const { data, end } = await run.read(req.offset, LIVE_PULL_BYTES, PULL_WAIT_MS);
    if (end) run.leave(req.listener);
    return { data: data.toString('base64'), end, progress: run.percent };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

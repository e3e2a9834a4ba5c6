import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@patchbay/platform';
import type { FcmTestEndpoint } from './fcm-endpoint';
import type { JobResult } from './job-result';
import type { SendJob } from './send-job';
import type { SendRunner } from './send-runner';

/** How long a worker may take to load (under tsx it compiles its modules first). */
const READY_TIMEOUT_MS = 60_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** One running worker thread and the calls it has not answered yet. */
interface Lane {
  worker: Worker;
  calls: Set<number>;
}

/** What a worker posts: `ready` once, then an answer per call. */
interface WorkerMessage {
  type?: 'ready';
  id?: number;
  result?: unknown;
  error?: string;
}

/**
 * The worker thread, from the bundle (`send.worker.js` beside `main.js`, deploy/bundle.ts) or from
 * source: there tsx's CommonJS hook is registered inside the thread first, since a worker does not
 * get the parent's TypeScript loader.
 */
function spawn(endpoint: FcmTestEndpoint | undefined): Worker {
  const workerData = { endpoint };
  if (!__filename.endsWith('.ts')) return new Worker(path.join(__dirname, 'send.worker.js'), { workerData });
  const source = path.join(__dirname, 'send.worker.ts');
  // Resolved inside the thread (a string to the bundler): tsx is a development dependency only.
  const tsx = `require.resolve('tsx/cjs/api', { paths: [${JSON.stringify(__dirname)}] })`;
  const code = `require(${tsx}).register(); require(${JSON.stringify(source)});`;
  return new Worker(code, { eval: true, workerData, execArgv: [] });
}

/**
 * Send jobs on `count` worker threads (PUSH_SEND_WORKERS, default one per core), so one push replica
 * sends on every core: the service's thread reads requests and devices, the workers do the
 * providers' HTTP/2 and TLS work (FCM and APNs sessions). The threads start on the first job (one
 * launch at a time: jobs that come meanwhile wait for it) and end after `idleMs` without a job, with
 * their sessions, so a process that does not send keeps no V8 isolates for it; the next job starts
 * them again. A worker that dies fails its jobs in flight (their devices become provider_error) and
 * is replaced.
 */
export class WorkerSendRunner implements SendRunner {
  /** Worker threads started so far (tests: a launch is shared, not repeated). */
  launched = 0;
  private lanesNow?: Lane[];
  private launching?: Promise<Lane[]>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closing = false;
  private idleTimer?: NodeJS.Timeout;

  constructor(
    readonly lanes: number,
    private readonly endpoint: FcmTestEndpoint | undefined,
    private readonly log: Logger,
    private readonly idleMs: number,
  ) {}

  /** Worker threads running now (0 before the first job and after an idle period). */
  get running(): number {
    return this.lanesNow?.length ?? 0;
  }

  async run(lane: number, job: SendJob): Promise<JobResult> {
    const lanes = await this.started();
    // why: the worker answers a `run` with its JobResult (cloned across threads, untyped on arrival).
    return (await this.call(lanes, lane, { type: 'run', job })) as JobResult;
  }

  /** Closes a sender's sessions in every worker; nothing to do while none runs. */
  async release(sender: string): Promise<void> {
    const lanes = this.lanesNow;
    if (!lanes) return;
    await Promise.all(lanes.map((_, lane) => this.call(lanes, lane, { type: 'release', sender })));
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.idleTimer);
    await this.launching?.catch(() => undefined);
    await this.stop();
  }

  /** The running workers, launched first when there are none (concurrent callers share one launch). */
  private started(): Promise<Lane[]> {
    if (this.closing) return Promise.reject(new Error('the push send workers are closed'));
    if (this.lanesNow) return Promise.resolve(this.lanesNow);
    this.launching ??= this.launchAll().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private async launchAll(): Promise<Lane[]> {
    const lanes: Lane[] = [];
    const started = await Promise.allSettled(Array.from({ length: this.lanes }, (_, i) => this.launch(lanes, i)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed || this.closing) {
      await Promise.all(lanes.map((l) => this.end(l.worker)));
      throw failed ? failed.reason : new Error('the push send workers are closed');
    }
    this.lanesNow = lanes;
    this.log.info({ workers: lanes.length }, 'push send workers started');
    return lanes;
  }

  private call(lanes: Lane[], lane: number, message: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      lanes[lane].calls.add(id);
      lanes[lane].worker.postMessage({ ...message, id });
    });
  }

  /** Settles a call; with none left in flight, the idle countdown starts. */
  private settle(lane: Lane, m: WorkerMessage): void {
    const p = m.id !== undefined ? this.pending.get(m.id) : undefined;
    if (!p || m.id === undefined) return;
    this.pending.delete(m.id);
    lane.calls.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.result);
    if (this.pending.size === 0 && !this.closing) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.idle(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private async idle(): Promise<void> {
    if (this.pending.size > 0 || this.closing || !this.lanesNow) return;
    this.log.info({ workers: this.lanesNow.length, idle_ms: this.idleMs }, 'push send workers idle; stopping them');
    await this.stop();
  }

  /** Ends the running workers (their sessions close first); the next job starts new ones. */
  private async stop(): Promise<void> {
    const lanes = this.lanesNow;
    this.lanesNow = undefined;
    if (lanes) await Promise.all(lanes.map((l) => this.end(l.worker)));
  }

  private end(worker: Worker): Promise<void> {
    return new Promise<void>((resolve) => {
      if (worker.threadId === -1) return resolve(); // already exited
      worker.once('exit', () => resolve());
      worker.postMessage({ type: 'close' });
      setTimeout(() => void worker.terminate(), 5000).unref();
    });
  }

  /** Starts lane `i` of `lanes` and resolves once its worker is ready. */
  private launch(lanes: Lane[], i: number): Promise<void> {
    const lane: Lane = { worker: spawn(this.endpoint), calls: new Set() };
    this.launched++;
    lanes[i] = lane;
    const { worker } = lane;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('push send worker did not start in time')), READY_TIMEOUT_MS);
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else this.settle(lane, m);
      });
      worker.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
        this.log.error({ lane: i, err }, 'push send worker failed');
      });
      worker.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`push send worker exited (${code}) before it was ready`));
        for (const id of lane.calls) {
          this.pending.get(id)?.reject(new Error(`push send worker exited (${code})`));
          this.pending.delete(id);
        }
        if (this.closing || this.lanesNow !== lanes || lanes[i] !== lane) return;
        this.log.warn({ lane: i, code }, 'push send worker exited; starting another');
        this.launch(lanes, i).catch((err: unknown) =>
          this.log.error({ lane: i, err }, 'push send worker did not restart'),
        );
      });
    });
  }
}

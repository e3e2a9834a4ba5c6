import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@patchbay/platform';
import type { FcmTestEndpoint } from './fcm-endpoint';
import type { JobResult, SendJob } from './send-job';
import type { SendRunner } from './send-runner';

/** How long a worker may take to load (under tsx it compiles its modules first). */
const READY_TIMEOUT_MS = 60_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
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
 * Send jobs on worker threads (PUSH_SEND_WORKERS, default one per core), so one push replica sends
 * on every core: the service's thread reads requests and devices, the workers do the providers'
 * HTTP/2 and TLS work (FCM sessions, node-apn Providers). A worker that dies fails its jobs in flight (their devices
 * become provider_error) and
 * is replaced.
 */
export class WorkerSendRunner implements SendRunner {
  private readonly workers: Worker[] = [];
  /** The ids of the calls each worker has in flight: failed if it dies. */
  private readonly inFlight = new WeakMap<Worker, Set<number>>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closing = false;

  private constructor(
    private readonly endpoint: FcmTestEndpoint | undefined,
    private readonly log: Logger,
  ) {}

  static async start(count: number, endpoint: FcmTestEndpoint | undefined, log: Logger): Promise<WorkerSendRunner> {
    const runner = new WorkerSendRunner(endpoint, log);
    try {
      await Promise.all(Array.from({ length: count }, (_, i) => runner.launch(i)));
    } catch (err) {
      await runner.close();
      throw err;
    }
    return runner;
  }

  get lanes(): number {
    return this.workers.length;
  }

  run(lane: number, job: SendJob): Promise<JobResult> {
    // The worker answers a run with the JobResult of LaneSessions.run (send.worker.ts), cloned across threads.
    return this.call(lane, { type: 'run', job }) as Promise<JobResult>;
  }

  async release(sender: string): Promise<void> {
    await Promise.all(this.workers.map((_, lane) => this.call(lane, { type: 'release', sender })));
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.postMessage({ type: 'close' });
            setTimeout(() => void w.terminate(), 5000).unref();
          }),
      ),
    );
  }

  private call(lane: number, message: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.inFlight.get(this.workers[lane])?.add(id);
      this.workers[lane].postMessage({ ...message, id });
    });
  }

  private launch(lane: number): Promise<void> {
    const worker = spawn(this.endpoint);
    const jobs = new Set<number>();
    this.inFlight.set(worker, jobs);
    this.workers[lane] = worker;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('push send worker did not start in time')), READY_TIMEOUT_MS);
      worker.on('message', (m: { type?: 'ready'; id?: number; result?: unknown; error?: string }) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          resolve();
          return;
        }
        const p = m.id !== undefined ? this.pending.get(m.id) : undefined;
        if (!p || m.id === undefined) return;
        this.pending.delete(m.id);
        jobs.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result);
      });
      worker.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
        this.log.error({ lane, err }, 'push send worker failed');
      });
      worker.on('exit', (code) => {
        for (const id of jobs) {
          this.pending.get(id)?.reject(new Error(`push send worker exited (${code})`));
          this.pending.delete(id);
        }
        if (this.closing || this.workers[lane] !== worker) return;
        this.log.warn({ lane, code }, 'push send worker exited; starting another');
        this.launch(lane).catch((err: unknown) => this.log.error({ lane, err }, 'push send worker did not restart'));
      });
    });
  }
}

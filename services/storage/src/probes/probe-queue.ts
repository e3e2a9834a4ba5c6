import type { Stoppable } from '@patchbay/platform';

/** What one attempt of a queued probe came to. */
export type ProbeAttempt = { settled: true } | { settled: false; reason: string };

/** Runs one attempt of the probe of a file; `failures` is how many attempts of it failed before. */
export type RunProbe = (fileSid: string, failures: number) => Promise<ProbeAttempt>;

/**
 * The durable queue of media probes (decisions §49): a probe of an acknowledged file is retried, with backoff,
 * until it answers or shows the file is not media, across restarts and outages. Two adapters: JetStream in the
 * distributed mode (bus-probe-queue.ts, shared by every storage replica), the store's own collection in the
 * all-in-one, whose in-process bus loses its jobs with the process (store-probe-queue.ts).
 */
export interface ProbeQueue {
  /**
   * Records that the file is to be probed, not before `notBefore`. Called before the file is recorded: a probe of
   * a file that never was finds none and ends. Rejects when it cannot be recorded (the commit then fails).
   */
  schedule(fileSid: string, notBefore: Date): Promise<void>;
  /** The file needs no probe any more: forget it now (optional; a job that finds its file settled ends anyway). */
  forget?(fileSid: string): Promise<void>;
  /** Starts taking due probes; stopping waits for the attempts in flight. */
  start(run: RunProbe): Promise<Stoppable>;
}

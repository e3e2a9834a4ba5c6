import { Worker } from 'node:worker_threads';

/** How long after the deadline a process whose main thread is stuck is killed outright. */
export const BACKSTOP_MS = 2000;

/**
 * Arms a stop's deadline (decisions §50): `onExpire` (which exits) runs after `ms` from an ordinary
 * timer that keeps the event loop alive; and in case the main thread is held where no timer can
 * run (a synchronous write, a native call that never returns), a thread of its own kills the
 * process with SIGKILL `BACKSTOP_MS` later. Whatever the log, the bus or the stores do, the process
 * is gone by then.
 */
export function armExitDeadline(ms: number, onExpire: () => void): void {
  setTimeout(onExpire, ms);
  const backstop = new Worker(
    "const { workerData } = require('node:worker_threads');" +
      "setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);",
    { eval: true, workerData: { pid: process.pid, ms: ms + BACKSTOP_MS }, stdout: true, stderr: true },
  );
  // The timer above holds the process; the backstop thread must not (a stop that finishes exits at once).
  backstop.unref();
}

/**
 * Decides what each stop signal means (decisions §50). The first starts a graceful stop. A terminal
 * sends Ctrl-C's SIGINT to the whole foreground process group, so the same keypress also arrives
 * relayed by pnpm, tsx or a launcher within milliseconds: signals within `windowMs` of the first
 * are that same request. One that comes later is a person asking again: stop now.
 */
export class StopSignals {
  private first: number | undefined;
  constructor(
    private readonly windowMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a stop was asked for. */
  get started(): boolean {
    return this.first !== undefined;
  }

  /** `stop` for the first signal, `same` for its echoes, `force` for a later one. */
  next(): 'stop' | 'same' | 'force' {
    const at = this.now();
    if (this.first === undefined) {
      this.first = at;
      return 'stop';
    }
    return at - this.first <= this.windowMs ? 'same' : 'force';
  }
}

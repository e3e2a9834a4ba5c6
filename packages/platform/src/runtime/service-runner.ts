import type { Logger } from 'pino';
import { watchProcess } from './watch-process';
import { nodeVersionProblem } from './node-version';
import { stopTracing, tracingSummary } from '../tracing/start-tracing';
import { armExitDeadline, StopSignals } from './exit-deadline';

/**
 * How long a process has, after SIGTERM, to finish its work before it exits anyway. Anything a
 * service lets its work run for at shutdown (a work subscription's `drainMs`) must fit well inside.
 */
export const SHUTDOWN_GRACE_MS = 25_000;

/** Start-up failures whose message is written to stderr as it is, besides the log line. */
const PLAIN_ERRORS = new Set(['ConfigError', 'DataDirLockedError']);

/** Something that was started and can be stopped gracefully. */
export interface Stoppable {
  /** Stop taking new work, finish what is in flight, release resources. */
  stop(): Promise<void>;
}

/** Exit status of a stop forced by a repeated signal: the shell's 128 + signal number. */
const FORCED_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Runs `start` and stops it gracefully on SIGTERM/SIGINT: the returned Stoppable stops taking
 * work and finishes what is in flight; then `cleanup` closes the bus and stores. Signals that echo
 * the first one (within a second: a terminal's Ctrl-C reaches pnpm, tsx and the launcher too, and
 * they relay it) are the same stop; a signal given later exits at once. `graceMs` after the first
 * signal the process exits whatever its stop is waiting for (exit-deadline.ts: a timer that holds
 * the process, and a thread that kills it if its main thread cannot run the timer). Start-up
 * errors are logged and exit with status 1. With `exitWith`, the same graceful stop starts when
 * that process disappears (a launcher killed with SIGKILL takes its services with it instead of
 * leaving them orphaned).
 */
export function runProcess(opts: {
  name: string;
  logger: Logger;
  start: () => Promise<Stoppable>;
  graceMs?: number;
  exitWith?: number;
}): void {
  const { logger } = opts;
  const tooOld = nodeVersionProblem();
  if (tooOld) {
    logger.fatal(tooOld);
    process.exit(1);
  }
  // One line says whether spans leave this process, and to where (nothing is said while tracing is off).
  const tracing = tracingSummary();
  if (tracing) logger.info(tracing);
  // Every file and directory a Patchbay process creates (stores, blobs, keys, locks, scratch files)
  // is its user's alone: 0600 and 0700 whatever the umask it was started with.
  process.umask(0o077);
  let running: Stoppable | undefined;
  const signals = new StopSignals();
  const shutdown = (signal: string) => {
    const meaning = signals.next();
    if (meaning === 'same') return;
    if (meaning === 'force') {
      logger.warn({ signal }, 'asked again to stop: exiting without finishing in-flight work');
      process.exit(FORCED_EXIT[signal] ?? 1);
    }
    logger.info({ signal }, 'shutting down: finishing in-flight work');
    armExitDeadline(opts.graceMs ?? SHUTDOWN_GRACE_MS, () => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    });
    (running ? running.stop() : Promise.resolve())
      // The spans of the last work are still in the exporter's batch: send them before exiting.
      .then(() => stopTracing().catch((err: unknown) => logger.warn({ err }, 'traces could not be flushed')))
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  if (opts.exitWith && opts.exitWith > 1) {
    const pid = opts.exitWith;
    watchProcess(pid, () => {
      logger.warn({ pid }, 'the process that started this one is gone');
      shutdown('parent gone');
    });
  }
  opts
    .start()
    .then((s) => {
      running = s;
      if (signals.started) void s.stop().then(() => process.exit(0));
    })
    .catch((err: unknown) => {
      // Config errors carry their own readable list, and a locked data directory names the lock and its
      // holder: print them plainly as well.
      if (err instanceof Error && PLAIN_ERRORS.has(err.name)) process.stderr.write(`${err.message}\n`);
      logger.fatal({ err }, `${opts.name} failed to start`);
      process.exit(1);
    });
}

/** Stops several things in order, continuing past failures, and rethrows the first failure. */
export async function stopAll(items: Array<Stoppable | undefined>): Promise<void> {
  let first: unknown;
  for (const item of items) {
    try {
      await item?.stop();
    } catch (err) {
      first ??= err;
    }
  }
  if (first) throw first;
}

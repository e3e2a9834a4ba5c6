import { execFileSync } from 'node:child_process';

/**
 * ffmpeg must never outlive the worker that started it: a transcoder killed with SIGKILL cannot
 * kill its children, and an orphaned ffmpeg keeps a core busy and its scratch files open for up to
 * the run's time limit. Where util-linux's `setpriv` can set a parent-death signal (Linux), every
 * child is started through `setpriv --pdeathsig KILL`, so the kernel kills it when the worker dies.
 * setpriv execs the command in place: the child's PID is ffmpeg's own. Elsewhere children start
 * plainly, and the scratch sweep (scratch-sweep.ts) kills what a dead worker left when the next
 * worker starts; it also covers the instant between fork and prctl, which setpriv cannot.
 */
let available: boolean | undefined;

/** Whether children get a parent-death signal here (checked once, by running setpriv). */
export function parentDeathSignal(): boolean {
  if (available === undefined) {
    try {
      execFileSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 });
      available = true;
    } catch {
      available = false;
    }
  }
  return available;
}

/** The command and arguments that run `bin args…` so that it dies with this process where possible. */
export function guarded(bin: string, args: string[]): [string, string[]] {
  return parentDeathSignal() ? ['setpriv', ['--pdeathsig', 'KILL', '--', bin, ...args]] : [bin, args];
}

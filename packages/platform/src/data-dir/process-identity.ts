import fs from 'node:fs';
import os from 'node:os';
import { errorCode, fieldOf } from '../basics/error-fields';

/**
 * Who holds a lock: enough to tell, later and from another process, whether that very process is
 * still running. A PID alone is not: after a crash the PID may be reused by an unrelated process
 * (in a container, the restarted Patchbay is PID 1 again). The start time (in clock ticks since
 * boot, from /proc) and the boot id tell a reused PID apart; the host name tells that the PID is
 * not one this machine (or container) can check at all.
 */
export interface ProcessIdentity {
  pid: number;
  /** /proc/<pid>/stat field 22; null where there is no /proc (macOS): the PID alone is checked. */
  start: string | null;
  /** /proc/sys/kernel/random/boot_id; null where there is none. */
  boot: string | null;
  host: string;
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** /proc/<pid>/stat from field 3 (state) on, or null (no such process, or no /proc). */
function statFields(pid: number): string[] | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (!stat) return null;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The start time of `pid` as /proc tells it (field 22), or null (no such process, or no /proc). */
export function startTimeOf(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/**
 * Whether `pid` has exited and only waits to be reaped (a zombie, state Z or X): it holds nothing.
 * Where PID 1 does not reap orphans (a container without an init), a holder killed with SIGKILL
 * stays a zombie for as long as the container runs.
 */
function isZombie(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state === 'Z' || state === 'X';
}

export function currentIdentity(): ProcessIdentity {
  return {
    pid: process.pid,
    start: startTimeOf(process.pid),
    boot: readOrNull('/proc/sys/kernel/random/boot_id'),
    host: os.hostname(),
  };
}

/**
 * Whether the process `holder` names is still running, as far as this process can tell:
 * - another host name: it cannot be checked from here, so it counts as running;
 * - another boot of this machine: it is gone;
 * - no process with that PID, or only its zombie (exited, not yet reaped): gone; a process with that
 *   PID that started at another time: the PID was reused, the holder is gone.
 */
export function isRunning(holder: ProcessIdentity, self: ProcessIdentity = currentIdentity()): boolean {
  if (holder.host !== self.host) return true;
  if (holder.boot && self.boot && holder.boot !== self.boot) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user; its start time below still tells.
    if (errorCode(err) !== 'EPERM') return false;
  }
  if (isZombie(holder.pid)) return false;
  if (holder.start === null) return true;
  return startTimeOf(holder.pid) === holder.start;
}

/** A holder record read back from a lock file; null when it is not one (partial or foreign content). */
export function parseIdentity(text: string): ProcessIdentity | null {
  try {
    const v: unknown = JSON.parse(text);
    const [pid, start, boot, host] = [fieldOf(v, 'pid'), fieldOf(v, 'start'), fieldOf(v, 'boot'), fieldOf(v, 'host')];
    if (typeof pid !== 'number' || !Number.isInteger(pid) || typeof host !== 'string') return null;
    return {
      pid,
      start: typeof start === 'string' ? start : null,
      boot: typeof boot === 'string' ? boot : null,
      host,
    };
  } catch {
    return null;
  }
}

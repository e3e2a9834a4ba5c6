import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { statFields } from './proc';

/**
 * Servers on one core, load generators on the other. On a 2-core machine left to the scheduler, a
 * server and wrk (or curl) at times share a core and at times do not: the same server measured
 * 20-30 % apart from one 3-second round to the next (26 Nov, two identical Patchbay instances side
 * by side). Pinned, every server under test gets core 0 to itself and every client core 1, the
 * same for nginx, the bare Node server and Patchbay. Off (and said so in the report) on a
 * machine with one core or without taskset (util-linux).
 */
export const SERVER_CPU = '0';
export const CLIENT_CPU = '1';

export const pinning: boolean = os.cpus().length >= 2 && hasTaskset();

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Puts `pid`, every thread of it and every process descended from it on the server core. */
export function pinServer(pid: number): void {
  if (!pinning) return;
  for (const p of [pid, ...descendantsOf(pid)]) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', SERVER_CPU, String(p)], { stdio: 'ignore' });
    } catch {
      /* exited meanwhile */
    }
  }
}

/** `command args` run on the client core: the argv for execFile/spawn. */
export function onClientCpu(command: string, args: string[]): [string, string[]] {
  return pinning ? ['taskset', ['-c', CLIENT_CPU, command, ...args]] : [command, args];
}

/** A line for the report. */
export function pinningSummary(): string {
  return pinning
    ? `servers pinned to core ${SERVER_CPU}, clients to core ${CLIENT_CPU} (taskset)`
    : 'not pinned (one core, or no taskset)';
}

function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(statFields(entry)[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

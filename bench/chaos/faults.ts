/**
 * The faults the chaos soak injects into a distributed instance, one at a time: kill -9 of one
 * service process (the launcher must bring it back), kill -9 of nats-server (started again after a
 * few seconds on the same port and store), and SIGSTOP of one service process for 10–25 s (then
 * SIGCONT). Service processes are found under the launcher's process group by their entry point.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PatchbayInstance } from '../../tests/harness/patchbay';
import { statFields } from '../lib/proc';

/** The services a fault may hit (the launcher runs each from services/<name>/src/main.ts). */
export const SERVICES = ['gateway', 'storage', 'records', 'transcoder', 'file-server', 'identity', 'endpoint'] as const;
export type Service = (typeof SERVICES)[number];

export interface ServiceProcess {
  service: Service;
  /** The process tsx started for the service (its parent is the launcher's tsx). */
  pid: number;
}

/** Every running service process of the instance: the outermost process per replica. */
export function serviceProcesses(pgid: number): ServiceProcess[] {
  const found = new Map<number, { service: Service; ppid: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = statFields(entry);
      if (Number(stat[2]) !== pgid || stat[0] === 'Z') continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const m = /services\/([a-z-]+)\/src\/main\.ts/.exec(cmd);
      const service = SERVICES.find((s) => s === m?.[1]);
      if (service) found.set(Number(entry), { service, ppid: Number(stat[1]) });
    } catch {
      /* gone meanwhile */
    }
  }
  // tsx runs the entry in a child of its own: keep the process whose parent is not the same service.
  return [...found]
    .filter(([, p]) => found.get(p.ppid)?.service !== p.service)
    .map(([pid, p]) => ({ service: p.service, pid }));
}

/** The process and its descendants (a kill -9 of a service takes its tsx child with it, as a crash would). */
function withDescendants(pid: number): number[] {
  const all: number[] = [pid];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(entry)[1]) === pid) all.push(...withDescendants(Number(entry)));
    } catch {
      /* gone */
    }
  }
  return all;
}

const signal = (pids: number[], sig: NodeJS.Signals) => {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
};

export interface FaultRecord {
  at: number;
  kind: 'kill' | 'nats' | 'stop';
  service?: Service;
  pid?: number;
  seconds?: number;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/** Injects one fault of a random kind and returns once it is over (a stopped process continued, NATS up). */
export async function injectFault(inst: PatchbayInstance, log: (line: string) => void): Promise<FaultRecord> {
  const kind = pick(['kill', 'kill', 'stop', 'nats'] as const);
  const at = Date.now();
  if (kind === 'nats') {
    const seconds = 3 + Math.floor(Math.random() * 5);
    log(`fault: kill -9 nats-server, down ${seconds} s`);
    await inst.restartNats(seconds * 1000, true);
    return { at, kind, seconds };
  }
  const procs = serviceProcesses(inst.pid);
  if (procs.length === 0) throw new Error('no service process found under the launcher');
  const target = pick(procs);
  const tree = withDescendants(target.pid);
  if (kind === 'kill') {
    log(`fault: kill -9 ${target.service} (pid ${target.pid})`);
    signal(tree, 'SIGKILL');
    return { at, kind, service: target.service, pid: target.pid };
  }
  const seconds = 10 + Math.floor(Math.random() * 16);
  log(`fault: SIGSTOP ${target.service} (pid ${target.pid}) for ${seconds} s`);
  signal(tree, 'SIGSTOP');
  await sleep(seconds * 1000);
  signal(tree, 'SIGCONT');
  return { at, kind, service: target.service, pid: target.pid, seconds };
}

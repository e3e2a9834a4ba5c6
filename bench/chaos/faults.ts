/**
 * The faults the chaos soak injects into a distributed instance, one at a time: kill -9 of one
 * service process (the launcher must bring it back), kill -9 of nats-server (started again after a
 * few seconds on the same port and store), and SIGSTOP of one service process for 10–25 s (then
 * SIGCONT). Service processes are found among the launcher's descendants by their entry point.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PatchbayInstance } from '../../tests/harness/patchbay';
import { statFields } from '../lib/proc';

/** The services a fault may hit (the launcher runs each from services/<name>/src/main.ts). */
export const SERVICES = [
  'gateway',
  'storage',
  'records',
  'transcoder',
  'file-server',
  'identity',
  'endpoint',
  'push',
  'threshold-worker',
] as const;
export type Service = (typeof SERVICES)[number];

export interface ServiceProcess {
  service: Service;
  /** The process tsx started for the service (its parent is the launcher's tsx). */
  pid: number;
}

/** Every live process: its parent and command line, from /proc. */
function processTable(): Map<number, { ppid: number; cmd: string }> {
  const table = new Map<number, { ppid: number; cmd: string }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = statFields(entry);
      if (stat[0] === 'Z') continue;
      table.set(Number(entry), { ppid: Number(stat[1]), cmd: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      /* gone meanwhile */
    }
  }
  return table;
}

/** `root` and every process descended from it (the launcher runs each service in a group of its own). */
function descendants(root: number, table = processTable()): number[] {
  const all = [root];
  for (let i = 0; i < all.length; i++) for (const [pid, p] of table) if (p.ppid === all[i]) all.push(pid);
  return all;
}

/** Every running service process under the launcher `root`: the outermost process per replica. */
export function serviceProcesses(root: number): ServiceProcess[] {
  const table = processTable();
  const found = new Map<number, Service>();
  for (const pid of descendants(root, table)) {
    const m = /services\/([a-z-]+)\/src\/main\.ts/.exec(table.get(pid)?.cmd ?? '');
    const service = SERVICES.find((s) => s === m?.[1]);
    if (service) found.set(pid, service);
  }
  // A wrapper (tsx) may run the entry in a child of its own: keep the outermost of each pair.
  return [...found]
    .filter(([pid, service]) => found.get(table.get(pid)?.ppid ?? 0) !== service)
    .map(([pid, service]) => ({ service, pid }));
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
  const tree = descendants(target.pid);
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

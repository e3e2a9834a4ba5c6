/**
 * The faults the chaos soak injects into a distributed instance, one at a time: kill -9 of one
 * service process (the launcher must bring it back), kill -9 of nats-server (started again after a
 * few seconds on the same port and store), and SIGSTOP of one service process for 10–25 s (then
 * SIGCONT). Service processes are found among the launcher's descendants by their entry point.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PatchbayInstance } from '../../tests/harness/patchbay';
import { findInGroup, statFields } from '../lib/proc';

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
  /** The service's process (the launcher runs it without a wrapper, leading its own process group). */
  pid: number;
}

/** Every running service process under the launcher `root` (a process group leader), one per replica. */
export function serviceProcesses(root: number): ServiceProcess[] {
  const out: ServiceProcess[] = [];
  for (const pid of findInGroup(root, '/src/main.ts')) {
    try {
      const [state, , pgrp] = statFields(pid);
      if (state === 'Z') continue;
      // A service leads its own process group: a child it has forked but not yet exec'd (ffmpeg a
      // moment before it runs) shows the service's command line too, and is not another service.
      if (Number(pgrp) !== pid) continue;
      const m = /services\/([a-z-]+)\/src\/main\.ts/.exec(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      const service = SERVICES.find((s) => s === m?.[1]);
      if (service) out.push({ service, pid });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
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

/** A fault asked for by name (`--fault stop:gateway`, `kill:storage`, `nats`): reproduces one finding. */
export interface FaultChoice {
  kind: FaultRecord['kind'];
  service?: string;
}

/** `kind[:service]` as `--fault` takes it; throws naming what is wrong. */
export function parseFaultChoice(text: string): FaultChoice {
  const [kind, service] = text.split(':');
  if (kind !== 'kill' && kind !== 'stop' && kind !== 'nats')
    throw new Error(`--fault ${text}: the kind is kill, stop or nats (kill:storage, stop:gateway, nats)`);
  return { kind, service: service || undefined };
}

/**
 * Injects one fault and returns once it is over (a stopped process continued, NATS up): of a random
 * kind on a random service, or the one `choice` names.
 */
export async function injectFault(
  inst: PatchbayInstance,
  log: (line: string) => void,
  choice?: FaultChoice,
): Promise<FaultRecord> {
  const kind = choice?.kind ?? pick(['kill', 'kill', 'stop', 'nats'] as const);
  const at = Date.now();
  if (kind === 'nats') {
    const seconds = 3 + Math.floor(Math.random() * 5);
    log(`fault: kill -9 nats-server, down ${seconds} s`);
    await inst.restartNats(seconds * 1000, true);
    return { at, kind, seconds };
  }
  const procs = serviceProcesses(inst.pid).filter((p) => !choice?.service || p.service === choice.service);
  if (procs.length === 0) throw new Error(`no ${choice?.service ?? 'service'} process found under the launcher`);
  const target = pick(procs);
  // Each service leads a process group of its own: the group and its descendants (ffmpeg among them).
  const tree = findInGroup(target.pid, '');
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

import fs from 'node:fs';
import type { PatchbayInstance } from '../../tests/harness/patchbay';
import { findInGroup } from './proc';

/** CPU seconds (user + system, every thread) a process has used so far, from /proc. */
export function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of the whole machine (every core's busy time), from /proc/stat. */
function machineCpu(): number {
  const [, ...f] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) / 100; // user nice system irq softirq
}

/**
 * Where the CPU of one run went: the bench process (the client, and the SDK itself on a direct
 * path), the fake providers, Patchbay's push process (its send workers included) and gateway
 * (distributed) or its one process (embedded: all under "other Patchbay"), and the rest of the
 * machine (nats-server, the kernel's loopback work, other work on the machine).
 */
export interface CpuSplit {
  client: number;
  fake: number;
  push: number;
  gateway: number;
  otherPatchbay: number;
  machine: number;
}

export function cpuSnapshot(inst: PatchbayInstance, fakePid: number): CpuSplit {
  const sum = (pids: number[]) => pids.reduce((a, pid) => a + cpuOf(pid), 0);
  const push = sum(findInGroup(inst.pid, 'services/push/src/main.ts'));
  const gateway = sum(findInGroup(inst.pid, 'services/gateway/src/main.ts'));
  const { user, system } = process.cpuUsage();
  return {
    client: (user + system) / 1e6,
    fake: cpuOf(fakePid),
    push,
    gateway,
    otherPatchbay: sum(findInGroup(inst.pid, '')) - push - gateway,
    machine: machineCpu(),
  };
}

export function cpuDelta(a: CpuSplit, b: CpuSplit): CpuSplit {
  return {
    client: b.client - a.client,
    fake: b.fake - a.fake,
    push: b.push - a.push,
    gateway: b.gateway - a.gateway,
    otherPatchbay: b.otherPatchbay - a.otherPatchbay,
    machine: b.machine - a.machine,
  };
}

/** One row of the CPU table. */
export function cpuRow(path: string, c: CpuSplit): Record<string, string> {
  const rest = c.machine - c.client - c.fake - c.push - c.gateway - c.otherPatchbay;
  return {
    path,
    'bench/client': c.client.toFixed(2),
    'fake providers': c.fake.toFixed(2),
    'Patchbay push': c.push.toFixed(2),
    'Patchbay gateway': c.gateway.toFixed(2),
    'other Patchbay': c.otherPatchbay.toFixed(2),
    'rest (NATS, kernel)': Math.max(0, rest).toFixed(2),
    'machine total': c.machine.toFixed(2),
  };
}

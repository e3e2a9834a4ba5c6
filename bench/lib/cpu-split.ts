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

/** The nats-server of a distributed instance (found by its port), if any. */
function natsPid(natsUrl: string | undefined): number | undefined {
  const port = natsUrl ? new URL(natsUrl).port : '';
  if (!port) return undefined;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0].endsWith('nats-server') && args.includes(port)) return Number(entry);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

/**
 * Where the CPU of one run went: the bench process (the client, and the SDK itself on a direct
 * path), the fake providers, Patchbay's push process (its send workers included) and gateway
 * (distributed) or its one process (embedded: all under "other Patchbay"), nats-server, and the
 * rest of the machine (the kernel's loopback work, and whatever else runs on the machine). The sum
 * of all but the rest is what the path itself cost: on a busy machine, the fairer comparison.
 */
export interface CpuSplit {
  client: number;
  fake: number;
  push: number;
  gateway: number;
  otherPatchbay: number;
  nats: number;
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
    nats: cpuOf(natsPid(inst.natsUrl) ?? 0),
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
    nats: b.nats - a.nats,
    machine: b.machine - a.machine,
  };
}

/** CPU seconds the path itself used: everything but the rest of the machine. */
export function pathCpu(c: CpuSplit): number {
  return c.client + c.fake + c.push + c.gateway + c.otherPatchbay + c.nats;
}

/** One row of the CPU table. */
export function cpuRow(path: string, c: CpuSplit): Record<string, string> {
  const total = pathCpu(c);
  return {
    path,
    'bench/client': c.client.toFixed(2),
    'fake providers': c.fake.toFixed(2),
    'Patchbay push': c.push.toFixed(2),
    'Patchbay gateway': c.gateway.toFixed(2),
    'other Patchbay': c.otherPatchbay.toFixed(2),
    NATS: c.nats.toFixed(2),
    'path total': total.toFixed(2),
    'rest of the machine': Math.max(0, c.machine - total).toFixed(2),
  };
}

import fs from 'node:fs';

/** Resident memory (bytes) of a process, from /proc. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The fields of /proc/<pid>/stat after the command name (0: state, 1: ppid, 2: pgrp, 11: utime, 12: stime). */
export function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * PIDs of the processes of an instance started as process group `pgid` whose command line contains
 * `needle`: the group's own, and every process descended from one of them (the distributed
 * launcher runs each service in a process group of its own, decisions §50).
 */
export function findInGroup(pgid: number, needle: string): number[] {
  const all: Array<{ pid: number; ppid: number; pgrp: number }> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = statFields(entry);
      all.push({ pid: Number(entry), ppid: Number(f[1]), pgrp: Number(f[2]) });
    } catch {
      /* gone */
    }
  }
  const mine = new Set(all.filter((p) => p.pgrp === pgid).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  const out: number[] = [];
  for (const pid of mine) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) out.push(pid);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Samples the peak RSS of the largest matching process every `ms` until stopped. */
export function samplePeak(pids: () => number[], ms = 50): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    for (const pid of pids()) peak = Math.max(peak, rssOf(pid));
  }, ms);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

export const MiB = 1024 * 1024;

/** CPU seconds (user + system) process `pid` has used so far, from /proc (clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of `pid`'s main thread alone (its event loop), without its worker threads'. */
export function mainThreadCpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function table(rows: Array<Record<string, string | number>>): string {
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (vals: string[]) => `| ${vals.map((v, i) => v.padEnd(width[i])).join(' | ')} |`;
  return [
    line(cols),
    `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map((r) => line(cols.map((c) => String(r[c])))),
  ].join('\n');
}

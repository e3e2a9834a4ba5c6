import fs from 'node:fs';

/**
 * What Linux's /proc tells about processes, for telling a live worker from a dead one and finding
 * what a dead one left running. Every function answers null (or nothing) where /proc is missing or
 * unreadable, so callers fall back to what works everywhere (heartbeats).
 */

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The start time of a running process, in clock ticks since boot (field 22 of /proc/<pid>/stat):
 * with the PID it names one process for good. Null when there is none — or only its zombie (a
 * killed process whose parent has not reaped it yet is dead, though /proc still lists it).
 */
export function startTime(pid: number | 'self'): string | null {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return null;
  // "pid (comm) state ppid …": comm may hold spaces or parentheses, so count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  return fields[19] ?? null;
}

/** This process's PID namespace ("pid:[4026531836]"): PIDs recorded in another one mean nothing here. */
export function pidNamespace(): string | null {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

/** Changes at every boot: a record from another boot is from a process that is certainly gone. */
export function bootId(): string | null {
  return read('/proc/sys/kernel/random/boot_id')?.trim() ?? null;
}

/** PIDs (in this namespace) of processes with an argument inside `dir`: ffmpeg and ffprobe name their scratch files. */
export function processesUsing(dir: string): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = read(`/proc/${entry}/cmdline`);
    if (cmdline && cmdline.split('\0').some((arg) => arg.startsWith(prefix))) found.push(Number(entry));
  }
  return found;
}

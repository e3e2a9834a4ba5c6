import fs from 'node:fs';
import { findInGroup } from '../../bench/lib/proc';
import { until } from '../support/poll';

/** The environment a process was started with (from /proc). */
function environOf(pid: number): Record<string, string> {
  try {
    return Object.fromEntries(
      fs
        .readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => {
          const i = kv.indexOf('=');
          return [kv.slice(0, i), kv.slice(i + 1)];
        }),
    );
  } catch {
    return {};
  }
}

/**
 * The PID of the node process that runs a service of a launched instance (process group `pgid`):
 * the launcher starts each service as `tsx <entry>`, and tsx runs the code in a node child. The
 * child is the one to signal: tsx relays a signal it receives itself, but SIGKILLs its child when
 * that does not confirm within 30 ms, which a busy child may miss. `env` picks one replica by its
 * environment (OPS_PORT, STORAGE_PORT).
 */
export function serviceProcess(pgid: number, entry: string, env: Record<string, string> = {}): number {
  const found = serviceProcesses(pgid, entry).filter((p) => Object.entries(env).every(([k, v]) => p.env[k] === v));
  if (found.length !== 1)
    throw new Error(`expected one process for ${entry} ${JSON.stringify(env)}, found ${found.length}`);
  return found[0].pid;
}

/** Every replica of a service in the group: the node process running it and its environment. */
export function serviceProcesses(pgid: number, entry: string): Array<{ pid: number; env: Record<string, string> }> {
  return (
    findInGroup(pgid, entry)
      // tsx's own process is `node …/.bin/tsx <entry>`; the child runs with tsx's preflight hook.
      .filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('preflight'))
      .map((pid) => ({ pid, env: environOf(pid) }))
  );
}

/** Resolves once `pid` is gone (polling /proc), or rejects after `timeoutMs`. */
export async function exitOf(pid: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const exited = () => !fs.existsSync(`/proc/${pid}`) || /^\d+ \([^)]*\) Z/.test(readStat(pid));
  await until(`process ${pid} to exit`, timeoutMs, () => (exited() ? true : undefined));
  return Date.now() - started;
}

function readStat(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Patchbay started exactly as a person starts it — `pnpm start` or `pnpm start:distributed`, in a
 * process group of its own as a terminal's foreground job is — so a test can signal the whole group
 * as a terminal's Ctrl-C or a supervisor does, and check that every process of it is gone.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { releasePorts, reservePorts } from '../harness/free-port';
import { findInGroup, statFields } from '../../bench/lib/proc';
import type { Mode } from '../harness/patchbay';
import { defaultContainer } from '../harness/default-container';
import { until } from './poll';

const ROOT = path.resolve(__dirname, '../..');

export interface ProcessGroup {
  /** The pnpm process's PID, which is the group's ID. */
  pgid: number;
  origin: string;
  storageUrl: string;
  token: string;
  dataDir: string;
  output(): string;
  /** pnpm's exit code (or the signal that ended it). */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every live (not zombie) process of the group and descended from it. */
  members(): number[];
  /** Polls the default container's SID. */
  defaultContainer(): Promise<string>;
  /** SIGKILL to whatever of the group is left, and its data directory removed. */
  cleanup(): Promise<void>;
}

/** Starts `pnpm start` (embedded) or `pnpm start:distributed` and waits until the bootstrap token works. */
export async function startGroup(mode: Mode, env: Record<string, string> = {}): Promise<ProcessGroup> {
  const port = await reservePorts(1);
  const storagePort = await reservePorts(4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `patchbay-group-${mode}-`));
  const token = `group-token-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const child = spawn('pnpm', [mode === 'embedded' ? 'start' : 'start:distributed'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      STORAGE_PORT: String(storagePort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      PATCHBAY_BOOTSTRAP_LOGIN: 'admin',
      PATCHBAY_BOOTSTRAP_PASSWORD: 'test-password-123',
      PATCHBAY_BOOTSTRAP_TOKEN: token,
      BUS_MAX_PAYLOAD: String(1024 * 1024),
      TRANSCODER_SCRATCH_DIR: path.join(dataDir, 'transcoder-scratch'),
      ...env,
    },
  });
  let out = '';
  const keep = (b: Buffer) => {
    out += b.toString();
    if (out.length > 4_000_000) out = out.slice(-2_000_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const pgid = child.pid!;
  const origin = `http://127.0.0.1:${port}`;
  const group: ProcessGroup = {
    pgid,
    origin,
    storageUrl: `http://127.0.0.1:${storagePort}`,
    token,
    dataDir,
    output: () => out,
    exit,
    members: () => groupMembers(pgid),
    defaultContainer: () => defaultContainer({ baseUrl: `${origin}/core/v2`, token }),
    cleanup: async () => {
      for (const pid of groupMembers(pgid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      releasePorts(port);
      releasePorts(storagePort, 4);
    },
  };
  const ready = async () => {
    if (child.exitCode !== null) throw new Error(`pnpm exited with ${child.exitCode}:\n${out.slice(-4000)}`);
    if (!out.includes('Patchbay is running.')) return undefined;
    const res = await fetch(`${origin}/core/v2/oauth/whoami`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2000),
    }).catch(() => undefined);
    return res?.status === 200 ? true : undefined;
  };
  try {
    await until('Patchbay to be ready', 120000, ready, { everyMs: 250, detail: () => out.slice(-4000) });
  } catch (err) {
    await group.cleanup();
    throw err;
  }
  return group;
}

/** Live processes of group `pgid` and descended from it (zombies, already exited, are not). */
export function groupMembers(pgid: number): number[] {
  return findInGroup(pgid, '').filter((pid) => {
    try {
      return statFields(pid)[0] !== 'Z';
    } catch {
      return false;
    }
  });
}

/**
 * Resolves once no process of group `pgid` is left, nor any that was in it or descended from it
 * when called (a service whose launcher is gone is no longer its descendant), with how long that
 * took; rejects after `timeoutMs`.
 */
export async function groupGone(pgid: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const watched = new Set(groupMembers(pgid));
  const left = () => {
    const now = new Set(groupMembers(pgid));
    for (const pid of watched) if (!now.has(pid) && alive(pid)) now.add(pid);
    return [...now];
  };
  await until(`group ${pgid} to be gone`, timeoutMs, () => (left().length === 0 ? true : undefined), {
    detail: () => `still there: ${left().join(', ')}`,
  });
  return Date.now() - started;
}

function alive(pid: number): boolean {
  try {
    return statFields(pid)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The TCP addresses processes `pids` listen on (`127.0.0.1:8080`, `0.0.0.0:9090`, `[::]:80`), from
 * /proc: their socket inodes matched against /proc/net/tcp and tcp6.
 */
export function listeningAddresses(pids: number[]): string[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      }
    } catch {
      /* gone */
    }
  }
  const found: string[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local address, state 0A (LISTEN), inode
      if (f.length < 10 || f[3] !== '0A' || !inodes.has(f[9])) continue;
      const [hex, port] = f[1].split(':');
      const host = v6
        ? hex === '0'.repeat(32)
          ? '[::]'
          : `[${hex}]`
        : [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
      found.push(`${host}:${parseInt(port, 16)}`);
    }
  }
  return found.sort();
}

function readlinkOrEmpty(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '';
  }
}

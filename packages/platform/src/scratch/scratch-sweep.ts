import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from '../logging/logger';
import { bootId, pidNamespace, processesUsing, startTime } from './proc';
import { HEARTBEAT_MS, OWNER_FILE, WORKER_PREFIX, OwnerRecordSchema, type OwnerRecord } from './worker-dir';

export interface SweepOptions {
  /** This worker's own directory: never touched. */
  own: string;
  /** A worker whose liveness can only be judged by its heartbeat is dead after this long without one. */
  staleMs?: number;
  /**
   * Job directories of the layout before worker directories go once untouched this long (a run's time limit, and more).
   */
  legacyMs: number;
}

export interface SweepResult {
  removed: string[];
  killed: number[];
}

/** A job directory of the layout before worker directories: a bare UUID in the root. */
const LEGACY_JOB = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether the owner of a worker directory is alive. On the same boot and in the same PID namespace
 * the PID and its start time say so for certain. A worker in another namespace (another container
 * sharing the volume) cannot be seen, so its heartbeat decides: alive while the owner file was
 * touched within `staleMs`.
 */
function ownerAlive(owner: OwnerRecord | null, ownerMtimeMs: number, staleMs: number): boolean {
  const here = bootId();
  if (owner && here && owner.boot_id && owner.boot_id !== here) return false;
  if (owner && owner.pid_ns && owner.pid_ns === pidNamespace()) {
    const now = startTime(owner.pid);
    return now !== null && (owner.start_time === null || now === owner.start_time);
  }
  return Date.now() - ownerMtimeMs < staleMs;
}

function readOwner(dir: string): { owner: OwnerRecord | null; mtimeMs: number } {
  try {
    const file = path.join(dir, OWNER_FILE);
    // Written by worker-dir.ts; one in another shape (another release's) is judged by its mtime alone.
    const owner: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { owner: Value.Check(OwnerRecordSchema, owner) ? owner : null, mtimeMs: fs.statSync(file).mtimeMs };
  } catch {
    // Not written yet (a worker that died between mkdir and write, or one starting right now).
    return { owner: null, mtimeMs: fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
  }
}

/** Newest mtime of a directory and its direct entries (an old-layout job writes its files in there). */
function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return Date.now();
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry))
    newest = Math.max(newest, fs.statSync(path.join(entry, name), { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return newest;
}

/** SIGKILL to every process (visible here) still working on files in `dir`. */
function killUsers(dir: string): number[] {
  const pids = processesUsing(dir);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* exited meanwhile, or not ours to kill */
    }
  }
  return pids;
}

/**
 * Cleans the shared scratch root of what dead workers left (a worker killed with SIGKILL cannot
 * clean up: its job's source and output, ~170 MB for a long recording, stay for good): every
 * directory whose owner is dead goes, after its leftover ffmpeg/ffprobe are killed (they name
 * files in it). Directories of live workers — this one's and other replicas' — are never touched.
 * Safe to run from several workers at once.
 */
export async function sweepScratch(root: string, log: Logger, opts: SweepOptions): Promise<SweepResult> {
  const staleMs = opts.staleMs ?? HEARTBEAT_MS * 3;
  const result: SweepResult = { removed: [], killed: [] };
  let names: string[];
  try {
    names = await fs.promises.readdir(root);
  } catch {
    return result;
  }
  for (const name of names) {
    const entry = path.join(root, name);
    if (entry === opts.own) continue;
    try {
      if (name.startsWith(WORKER_PREFIX)) {
        const { owner, mtimeMs } = readOwner(entry);
        if (ownerAlive(owner, mtimeMs, staleMs)) continue;
        const killed = killUsers(entry);
        result.killed.push(...killed);
        log.warn(
          { dir: entry, pid: owner?.pid ?? null, host: owner?.host ?? null, killed },
          'removing the scratch files of a dead transcoder worker',
        );
      } else if (LEGACY_JOB.test(name) && Date.now() - newestMtime(entry) >= opts.legacyMs) {
        log.warn({ dir: entry }, 'removing scratch files left by an older transcoder');
      } else continue;
      await fs.promises.rm(entry, { recursive: true, force: true });
      result.removed.push(entry);
    } catch (err) {
      // One entry that cannot be removed (permissions, a volume's lost+found) does not stop the rest.
      log.warn(
        { dir: entry, err: err instanceof Error ? err.message : String(err) },
        'could not sweep a scratch entry',
      );
    }
  }
  return result;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { bootId, pidNamespace, startTime } from './proc';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/**
 * Who owns a worker's scratch directory: enough for another worker to tell whether it still lives.
 * A schema, because the sweep reads other workers' files back (scratch-sweep.ts).
 */
export const OwnerRecordSchema = Type.Object({
  pid: Type.Integer(),
  /** With `pid`, names the process for good (PIDs are reused). */
  start_time: NullableString,
  pid_ns: NullableString,
  boot_id: NullableString,
  host: Type.String(),
  started_at: Type.String(),
});
export type OwnerRecord = Static<typeof OwnerRecordSchema>;

export const OWNER_FILE = 'owner.json';
/** Directories of the current layout start with this; anything else in the root is from before it. */
export const WORKER_PREFIX = 'w-';
/** The owner file's mtime is refreshed this often, for workers that cannot see each other's PIDs. */
export const HEARTBEAT_MS = 30_000;

export interface WorkerDir {
  /** This worker's own scratch directory: every job's files go below it. */
  dir: string;
  /** Stops the heartbeat and removes the directory (a clean stop; a crash leaves it to the sweep). */
  release(): Promise<void>;
}

/**
 * Claims a scratch directory of this worker's own under the shared `root` (several replicas may
 * share one scratch volume on a host), with an owner record and a heartbeat, so that whoever starts
 * next can remove what a dead worker left — and never what a live one is using.
 */
export async function claimWorkerDir(root: string): Promise<WorkerDir> {
  const dir = path.join(root, `${WORKER_PREFIX}${randomUUID()}`);
  // Private: an encrypted upload's plaintext passes through here (decisions §51).
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const owner: OwnerRecord = {
    pid: process.pid,
    start_time: startTime('self'),
    pid_ns: pidNamespace(),
    boot_id: bootId(),
    host: os.hostname(),
    started_at: new Date().toISOString(),
  };
  const file = path.join(dir, OWNER_FILE);
  await fs.promises.writeFile(file, JSON.stringify(owner));
  const beat = setInterval(() => {
    const now = new Date();
    fs.utimes(file, now, now, () => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    dir,
    release: async () => {
      clearInterval(beat);
      await fs.promises.rm(dir, { recursive: true, force: true });
    },
  };
}

import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logging/logger';
import { lockDir, type DirLock } from './dir-lock';
import { errorMessage } from '../basics/error-fields';

/** What a process holds of a data directory until it stops. */
export interface DataDirClaim {
  /** The lock files taken, one per service directory. */
  locks: string[];
  /** Releases every lock (after the stores are closed). */
  release(): void;
}

/**
 * Makes DATA_DIR private: created with mode 0700, or, when it exists readable or writable by
 * others, tightened to 0700 with a warning (the files under it are then out of their reach
 * whatever their own modes, files written before included). A directory this user may not chmod
 * is left as it is, with a warning.
 */
export function makePrivateDir(dir: string, log: Logger): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  try {
    fs.chmodSync(dir, 0o700);
    log.warn({ dir, was: mode.toString(8) }, 'the data directory was open to other users; its mode is now 0700');
  } catch (err) {
    log.warn({ dir, mode: mode.toString(8), err: errorMessage(err) }, 'the data directory is open to other users');
  }
}

/**
 * What a process that keeps state under DATA_DIR does before it opens a store: DATA_DIR made
 * private, then the exclusive lock of each service directory it owns (`<DATA_DIR>/<service>`), the
 * same lock whether the service runs in the all-in-one process or on its own, so any two processes
 * that would write one service's files refuse to share them. Throws DataDirLockedError (locks
 * already taken are released) when another process holds one.
 */
export function claimDataDir(opts: { dataDir: string; services: readonly string[]; log: Logger }): DataDirClaim {
  const root = path.resolve(opts.dataDir);
  makePrivateDir(root, opts.log);
  const held: DirLock[] = [];
  const release = () => {
    for (const lock of held.splice(0).reverse()) lock.release();
  };
  try {
    for (const service of opts.services) held.push(lockDir(path.join(root, service)));
  } catch (err) {
    release();
    throw err;
  }
  opts.log.info({ locks: held.map((l) => l.file) }, 'data directory locked');
  return { locks: held.map((l) => l.file), release };
}

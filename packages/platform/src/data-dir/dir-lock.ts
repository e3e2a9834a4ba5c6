import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { currentIdentity, isRunning, parseIdentity, type ProcessIdentity } from './process-identity';
import { errorCode } from '../basics/error-fields';

/** The lock file in each locked directory. */
export const LOCK_FILE = 'patchbay.lock';
/** A takeover mutex older than this was left by a process that died mid-takeover (which takes milliseconds). */
const ABANDONED_TAKEOVER_MS = 10_000;

/** Another process holds the directory: the message names the lock file and that process. */
export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: ProcessIdentity | null,
  ) {
    super(
      holder
        ? `${lockFile} is held by PID ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}: another Patchbay ` +
            'process is using this data directory (one process per data directory). Stop it, or use another DATA_DIR.'
        : `${lockFile} exists but does not name its holder: if no Patchbay process uses this data directory, ` +
            'remove the file and start again.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** A held lock: `release` removes the file if it is still ours (idempotent). */
export interface DirLock {
  file: string;
  release(): void;
}

/**
 * Takes the exclusive lock of `dir` (creating the directory, mode 0700): the file `patchbay.lock`
 * naming this process (PID, start time, boot id, host). It is created complete or not at all (written
 * aside and hard-linked into place, which fails when the file exists). A lock whose holder is gone — killed
 * with SIGKILL, the machine restarted, its PID since reused — is taken over; a takeover is serialised
 * through a `patchbay.lock.takeover` directory, so two processes starting together never both take one
 * stale lock. Throws DataDirLockedError while the holder runs. The lock is released on `release()` and,
 * as a last resort, when the process exits.
 */
export function lockDir(dir: string): DirLock {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
  const self = currentIdentity();
  const text = JSON.stringify(self);
  for (let attempt = 0; ; attempt++) {
    if (create(file, text)) break;
    const seen = readText(file);
    if (seen === null) continue; // released meanwhile: try again
    const holder = parseIdentity(seen);
    if (!holder || isRunning(holder, self)) throw new DataDirLockedError(file, holder);
    if (attempt >= 20) throw new DataDirLockedError(file, holder);
    takeOver(file, seen);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.removeListener('exit', release);
    if (readText(file) === text) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { file, release };
}

/** Creates `file` holding `text`, unless it exists (false). */
function create(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    fs.linkSync(temp, file);
    return true;
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Removes the stale lock whose content was `stale`, holding the takeover mutex: only the process that
 * made the mutex removes the lock, and only if it still is the stale one it judged (another taker may
 * have replaced it with its own in between). Without the mutex (someone else is taking over), returns
 * at once: the caller tries again.
 */
function takeOver(file: string, stale: string): void {
  const mutex = `${file}.takeover`;
  try {
    fs.mkdirSync(mutex, { mode: 0o700 });
  } catch (err) {
    if (errorCode(err) !== 'EEXIST') throw err;
    const age = Date.now() - (fs.statSync(mutex, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > ABANDONED_TAKEOVER_MS) fs.rmSync(mutex, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50); // let the other taker finish
    return;
  }
  try {
    if (readText(file) === stale) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(mutex, { recursive: true, force: true });
  }
}

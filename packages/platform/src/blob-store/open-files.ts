/**
 * Files a directory store keeps open for a short while, so that a burst of small reads of one
 * object (ranges of a public file) costs one positioned read each instead of open + fstat + read +
 * close. An entry is dropped when its time is up, when the same store writes or deletes the key,
 * or when the owner says the object changed elsewhere (`forget`: the file server does on file
 * events). A file in use is closed only after its last reader is done, so a descriptor number is
 * never read after it was closed (and perhaps reused).
 */
import fs from 'node:fs';
import { promisify } from 'node:util';

const openFd = promisify(fs.open);
const fstat = promisify(fs.fstat);
const closeFd = (fd: number) => fs.close(fd, () => undefined);

/** One open file: its descriptor and what fstat said when it was opened. */
export interface OpenFile {
  readonly fd: number;
  readonly size: number;
  readonly isFile: boolean;
  /** Which bytes these are: device, inode, size, mtime and ctime (see BlockCache). */
  readonly identity: string;
}

interface Entry extends OpenFile {
  expires: number;
  users: number;
  dropped: boolean;
}

/** Every OpenFile that `acquire` hands out is an Entry. */
function isEntry(f: OpenFile): f is Entry {
  return 'users' in f && 'dropped' in f;
}

/** At most this many files are kept open; past it the oldest entry is dropped. */
const MAX_OPEN = 512;

export class OpenFiles {
  private readonly entries = new Map<string, Entry>();
  private sweeper: NodeJS.Timeout | undefined;

  /**
   * The open file at `file`, kept for `keepMs` (0: opened for this use only). A kept file whose
   * size is not `size` (the object was replaced and the caller knows its new size) is reopened.
   * Call `release` when done.
   */
  async acquire(file: string, keepMs: number, size?: number): Promise<OpenFile> {
    const hit = this.entries.get(file);
    if (hit && hit.expires > Date.now() && (size === undefined || hit.size === size)) {
      hit.users += 1;
      return hit;
    }
    if (hit) this.drop(file);
    const fd = await openFd(file, 'r');
    let st: fs.Stats;
    try {
      st = await fstat(fd);
    } catch (err) {
      closeFd(fd);
      throw err;
    }
    const identity = `${st.dev}.${st.ino}.${st.size}.${st.mtimeMs}.${st.ctimeMs}`;
    const entry: Entry = {
      fd,
      size: st.size,
      isFile: st.isFile(),
      identity,
      expires: Date.now() + keepMs,
      users: 1,
      dropped: keepMs <= 0,
    };
    if (keepMs > 0) {
      // Another reader may have opened the same file meanwhile: the newer open wins.
      if (this.entries.has(file)) this.drop(file);
      if (this.entries.size >= MAX_OPEN) this.dropOldest();
      this.entries.set(file, entry);
      this.sweeper ??= setInterval(() => this.sweep(), Math.max(keepMs, 250)).unref();
    }
    return entry;
  }

  /** Ends one use of a file from `acquire`. */
  release(e: OpenFile): void {
    if (!isEntry(e)) throw new Error('release: not a file from acquire');
    e.users -= 1;
    if (e.dropped && e.users === 0) closeFd(e.fd);
  }

  /** Drops the kept file at `file` (written or deleted). */
  drop(file: string): void {
    const e = this.entries.get(file);
    if (!e) return;
    this.entries.delete(file);
    e.dropped = true;
    if (e.users === 0) closeFd(e.fd);
  }

  /** Drops the entry kept longest (Map keeps insertion order). */
  private dropOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.drop(oldest.value);
  }

  /** Drops every kept file whose path `match` accepts. */
  dropWhere(match: (file: string) => boolean): void {
    for (const file of [...this.entries.keys()]) if (match(file)) this.drop(file);
  }

  /** Drops everything (the store is closing). */
  clear(): void {
    this.dropWhere(() => true);
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [file, e] of [...this.entries]) if (e.expires <= now) this.drop(file);
    if (this.entries.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DirBlobStore, MemoryBus, SqliteDocStore, createLogger, type Stoppable } from '@patchbay/platform';

/**
 * The in-process world of the gateway's idempotency tests: one bus hub, a blob directory, a silent
 * logger, and a fresh bus or store for each service started on it; `close` stops what was started
 * (last first) and removes everything.
 */
export function busWorld(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gateway-${name}-`));
  const hub = MemoryBus.hub();
  const buses: MemoryBus[] = [];
  const stores: SqliteDocStore[] = [];
  const running: Stoppable[] = [];
  return {
    logger: createLogger({ name: `${name}-test`, level: 'silent' }),
    blobs: new DirBlobStore({ dir: path.join(dir, 'blobs') }),
    bus(): MemoryBus {
      const b = new MemoryBus(hub);
      buses.push(b);
      return b;
    },
    docs(): SqliteDocStore {
      const d = new SqliteDocStore();
      stores.push(d);
      return d;
    },
    /** Keeps `s` to be stopped by `close`; returns it. */
    started<S extends Stoppable>(s: S): S {
      running.push(s);
      return s;
    },
    async close(): Promise<void> {
      for (const s of running.reverse()) await s.stop();
      for (const b of buses) await b.close();
      for (const d of stores) await d.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

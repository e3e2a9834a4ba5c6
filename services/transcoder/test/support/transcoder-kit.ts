import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { createLogger, DirBlobStore, MemoryBus, SqliteDocStore, type Logger, type Stoppable } from '@patchbay/platform';
import { startTranscoderService } from '../../src/service';
import { systemBinaries } from './binaries';
import type { BinarySettings } from '../../src/ffmpeg/candidates';

/**
 * A real transcoder on the in-process bus with a directory blob store under a temporary root, and
 * more bus clients for the test's own requests and stand-ins. `stop()` removes everything.
 */
export async function startTranscoderKit(
  name: string,
  opts: { concurrency?: number; binaries?: BinarySettings; logger?: Logger } = {},
) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `pb-${name}-`));
  const blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
  const docs = new SqliteDocStore();
  const hub = MemoryBus.hub();
  const buses: MemoryBus[] = [];
  const bus = () => {
    const b = new MemoryBus(hub);
    buses.push(b);
    return b;
  };
  const logger = opts.logger ?? createLogger({ name, level: 'silent' });
  const service: Stoppable = await startTranscoderService(
    { bus: bus(), docs, blobs, logger, metrics: new Registry() },
    {
      scratchDir: path.join(root, 'scratch'),
      concurrency: opts.concurrency ?? 2,
      timeoutMs: 60_000,
      binaries: opts.binaries ?? systemBinaries(),
    },
  );
  return {
    root,
    blobs,
    bus,
    /** A local file of the blob, for ffprobe. */
    blobFile: (key: string) => path.join(root, 'blobs', key),
    stop: async () => {
      await service.stop();
      await Promise.all(buses.map((b) => b.close()));
      await docs.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

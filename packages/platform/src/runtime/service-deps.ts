import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Bus } from '../bus/port';
import type { DocStore } from '../doc-store/port';
import type { BlobStore } from '../blob-store/port';

/** What a service is built from. Only `main.ts` creates these; tests pass their own. */
export interface ServiceDeps {
  bus: Bus;
  docs: DocStore;
  blobs: BlobStore;
  logger: Logger;
  metrics: Registry;
}

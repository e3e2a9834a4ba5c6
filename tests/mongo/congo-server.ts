/**
 * CongoDB, the MongoDB-wire-protocol server inside `@push.rocks/smartmongo` (MIT), started in this
 * process with its in-memory storage: what `pnpm test:mongo` and the emulator's own tests run the
 * MongoDB adapters against, because no `mongod` can be installed on the machines this project is
 * built on.
 *
 * The package is ESM-only, so it is loaded with `import()` (this module runs under tsx, never
 * inside jest, whose CommonJS module system cannot load it). Unique-index enforcement and the
 * other fixes it needs are in `patches/@push.rocks__smartmongo@2.2.0.patch`.
 */
import { reservePorts, releasePorts } from '../../packages/platform/src/testing/ports';

/**
 * The query string the driver needs for this server (without `poll` the driver's streaming monitor
 * breaks after about 10 s; README, Tests on MongoDB).
 */
export const CONGO_URL_OPTIONS = 'directConnection=true&serverMonitoringMode=poll';

export interface WireServer {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true&serverMonitoringMode=poll` */
  url: string;
  port: number;
  /** Closes every connection and the listener; the data is gone with it. */
  stop(): Promise<void>;
}

/** Starts an in-memory CongoDB on a free port of 127.0.0.1; resolves once it listens. */
export async function startCongoServer(): Promise<WireServer> {
  const { CongoServer } = await import('@push.rocks/smartmongo/dist_ts/congodb/index.js');
  const port = await reservePorts(1);
  const server = new CongoServer({ host: '127.0.0.1', port, storage: 'memory' });
  try {
    await server.start();
  } catch (err) {
    releasePorts(port);
    throw err;
  }
  return {
    url: `mongodb://127.0.0.1:${port}/?${CONGO_URL_OPTIONS}`,
    port,
    stop: async () => {
      await server.stop();
      releasePorts(port);
    },
  };
}

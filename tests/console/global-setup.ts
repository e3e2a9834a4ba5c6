import { buildConsole } from '../../packages/console/scripts/build';

/** The browser tests drive the console as the gateway serves it: built first (well under a second). */
export default async function globalSetup(): Promise<void> {
  await buildConsole({ ifStale: true });
}

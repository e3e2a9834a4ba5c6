/**
 * Which MongoDB-wire server a test run talks to, as `pnpm test:mongo` found out from the server
 * itself (buildInfo) before starting jest. Tests read it synchronously: jest decides at
 * registration time whether a test runs.
 */
export type ServerKind = 'congodb' | 'mongodb';

export const SERVER_KIND_ENV = 'PATCHBAY_MONGO_SERVER';

/**
 * True only when MONGODB_URL is set and test:mongo identified the server as the CongoDB emulator.
 * Anything else — a real MongoDB, jest run directly without test:mongo — counts as not the
 * emulator, so an emulator-only skip can never hide a failure on MongoDB.
 */
export function onEmulator(): boolean {
  return Boolean(process.env.MONGODB_URL) && process.env[SERVER_KIND_ENV] === 'congodb';
}

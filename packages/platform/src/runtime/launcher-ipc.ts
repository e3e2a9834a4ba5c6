import { fieldOf } from '../basics/error-fields';

/**
 * What a service tells the distributed launcher that spawned it (over Node's IPC channel, which
 * `tsx` relays): it is ready, and where its /health and /metrics are. A service started any other
 * way has no channel and says nothing.
 */
export interface ReadyMessage {
  type: 'patchbay.ready';
  service: string;
  /** Port of the /health + /metrics server, or null when it has none. */
  opsPort: number | null;
}

export function reportReady(service: string, opsPort: number | null): void {
  const message: ReadyMessage = { type: 'patchbay.ready', service, opsPort };
  process.send?.(message);
}

export function isReadyMessage(value: unknown): value is ReadyMessage {
  if (typeof value !== 'object' || value === null) return false;
  const opsPort = fieldOf(value, 'opsPort');
  return (
    fieldOf(value, 'type') === 'patchbay.ready' &&
    typeof fieldOf(value, 'service') === 'string' &&
    (opsPort === null || typeof opsPort === 'number')
  );
}

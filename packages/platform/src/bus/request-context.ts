import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request ID of the message being handled, kept across `await`s (AsyncLocalStorage), so a
 * service's own outgoing bus calls carry it on without every handler passing it by hand: the
 * gateway sets it, and it reaches every hop (requests, events, jobs) of that call.
 */
const current = new AsyncLocalStorage<{ requestId?: string }>();

/** Runs `work` with `requestId` as the current request ID (none: the current one is cleared). */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return current.run({ requestId: requestId || undefined }, work);
}

/** The request ID of the message being handled here, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

import type { BusReply } from '../reply';

/**
 * The one thing a typed client needs of the bus: a request. Platform's `Bus` is one; contracts
 * names only this much of it, so clients live beside the messages they send.
 */
export interface BusRequester {
  request(subject: string, payload: unknown, opts?: { timeoutMs?: number; requestId?: string }): Promise<BusReply>;
}

/** How a client waits: its timeout, and the request ID of the call it serves (for the logs). */
export interface CallOptions {
  timeoutMs?: number;
  requestId?: string;
}

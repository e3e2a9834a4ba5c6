/**
 * The raw operations chunked transfer needs from a medium: a private subject that answers
 * requests, one request with a deadline, and one message that needs no answer. NATS core
 * (nats-large.ts) and the in-process hub (memory-wire.ts) each provide them, so both adapters run
 * the same transfer code.
 */
export interface ChunkWire {
  /**
   * Serves requests on a fresh private subject until `close()`. The subscription is in place when
   * this returns: a peer told the subject afterwards (in a later message of the same connection)
   * finds it.
   */
  offer(answer: (request: Uint8Array) => Uint8Array): { subject: string; close(): void };
  /**
   * One request to `subject` and its raw answer. Rejects with NoRespondersError when nobody serves
   * the subject, TimeoutError when no answer came in `timeoutMs`, another ApiError otherwise.
   */
  ask(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array>;
  /** One message to `subject` that expects no answer; lost quietly when nobody serves it. */
  tell(subject: string, data: Uint8Array): void;
}

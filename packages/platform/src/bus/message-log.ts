import type { TraceCarrier } from './port';

/** A message as the in-process streams keep it. */
export interface StoredMessage {
  subject: string;
  data: Uint8Array;
  requestId?: string;
  traceContext?: TraceCarrier;
  /** A body too large for one message: where to read it (instead of `data`). */
  load?: () => Promise<Uint8Array>;
  /** Lets that body go (the message is acknowledged off a work queue, or dropped off the log). */
  release?: () => void;
}

/**
 * What a durable consumer reads from its stream (memory-stream.ts implements it): sequence-numbered
 * messages, and a way to say one is settled. The consumer knows only this, not the stream.
 */
export interface MessageLog {
  /** Sequence of the newest message appended so far. */
  readonly lastSeq: number;
  get(seq: number): StoredMessage | undefined;
  /** The first sequence after `after` whose subject matches `filter`. */
  nextMatching(after: number, filter: string): number | undefined;
  /** The consumer acknowledged or terminated `seq`: a work queue forgets it. */
  settled(seq: number): void;
}

import pino from 'pino';

/**
 * Bytes of output a process holds while whoever reads its stdout does not keep up (decisions §50).
 * Past it new lines are dropped and counted rather than waited for.
 */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;

type SonicBoom = ReturnType<typeof pino.destination>;

/** Where a process's log lines (and its start banner) go: stdout, never blocking the process. */
export interface OutputSink {
  /** Queues `text`; drops it (and counts it) when LOG_BUFFER_BYTES are already waiting. */
  write(text: string): void;
  /** The stream pino writes JSON lines into. */
  readonly stream: pino.DestinationStream;
  /** Lines dropped since output last recovered. */
  dropped(): number;
  /**
   * Called once output flows again after lines were dropped, with how many (the logger reports it).
   * The last one set wins.
   */
  onRecovered(report: (dropped: number) => void): void;
}

let shared: OutputSink | undefined;

/**
 * The process's stdout as one asynchronous, bounded sink, shared by every logger of the process
 * (so their lines, and the banner, keep their order). A reader that stops reading (a supervisor
 * that is stopping, a full pipe) never blocks the process: writes go out from libuv's thread pool,
 * an EAGAIN is retried from a timer, and past `LOG_BUFFER_BYTES` lines are dropped with a count,
 * logged once the output flows again. At exit, what is buffered is written as far as the pipe
 * takes it without waiting (pino's own exit flush would retry an EAGAIN for ever).
 */
export function stdoutSink(): OutputSink {
  shared ??= createSink(1, LOG_BUFFER_BYTES);
  return shared;
}

/** A sink on file descriptor `fd` holding at most `maxBytes` (exported for tests). */
export function createSink(fd: number, maxBytes: number): OutputSink {
  // A pipe's end becomes non-blocking once Node opens it as a stream (process.stdout does): then a
  // write to a full pipe is an EAGAIN the sink retries later, never a wait inside write(2).
  if (fd === 1) void process.stdout.fd;
  let flushingAtExit = false;
  const stream: SonicBoom = pino.destination({
    dest: fd,
    sync: false,
    minLength: 0,
    maxLength: maxBytes,
    // In the exit flush (synchronous: there is no event loop left) an EAGAIN ends the flush.
    retryEAGAIN: () => !flushingAtExit,
  });
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    flushingAtExit = true;
    try {
      flushSync();
    } catch {
      /* the reader does not read: what is left is dropped */
    } finally {
      flushingAtExit = false;
    }
  };
  let dropped = 0;
  let report: ((n: number) => void) | undefined;
  stream.on('drop', () => {
    dropped += 1;
  });
  stream.on('write', () => {
    if (dropped === 0) return;
    const n = dropped;
    dropped = 0;
    report?.(n);
  });
  return {
    stream,
    write: (text) => {
      stream.write(text);
    },
    dropped: () => dropped,
    onRecovered: (fn) => {
      report = fn;
    },
  };
}

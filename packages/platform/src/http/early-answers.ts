import type http from 'node:http';
import type { Socket } from 'node:net';

/** How much of an unread body is still read (and dropped) after an early answer, at most. */
export interface EarlyAnswerDrain {
  bytes: number;
  ms: number;
}

/** 64 KiB or one second, whichever comes first (decisions §51). */
export const EARLY_ANSWER_DRAIN: Readonly<EarlyAnswerDrain> = Object.freeze({ bytes: 64 * 1024, ms: 1000 });

const hasBody = (req: http.IncomingMessage): boolean =>
  Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * An answer given before its request's body has arrived (a 401 for a missing token, a 413 or 422 for
 * a declared size, a refusal in the middle of an upload) closes its connection: the answer carries
 * `Connection: close`, and once it is sent the rest of the body is read and dropped only for a short
 * drain (at most `drain.bytes` or `drain.ms`), so the client can read the answer rather than a reset,
 * and then the connection is closed. Without this, Node keeps the connection and reads the body to its
 * end to reuse it, and a client trickling an endless body after a 401 holds the connection for good
 * (the slow-body watch stops once an answer is sent).
 *
 * Node ends a `Connection: close` response by `socket.destroySoon()`, which closes at once (with
 * unread bytes arriving, a reset the client may see before the answer): that one call is replaced on
 * the sockets concerned by the drain.
 */
export function closeEarlyAnswers(server: http.Server, drain: EarlyAnswerDrain = EARLY_ANSWER_DRAIN): void {
  // Before the app's own listener, so an answer it gives synchronously is covered too.
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!hasBody(req)) return;
    const writeHead = res.writeHead;
    // Every way of answering (writeHead, an implicit head by write/end) goes through writeHead.
    res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof res.writeHead>) {
      if (!req.complete && !res.headersSent) {
        res.setHeader('Connection', 'close');
        // The response's socket: a request whose body stream was destroyed no longer has its own.
        const socket = res.socket;
        if (socket) socket.destroySoon = () => lingerThenClose(socket, drain);
      }
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
  });
}

/** Ends our side after the answer, drops what still arrives within the bounds, then closes. */
function lingerThenClose(socket: Socket, drain: EarlyAnswerDrain): void {
  if (socket.destroyed) return;
  socket.end();
  const startedAt = socket.bytesRead;
  const close = (): void => {
    clearTimeout(timer);
    socket.off('data', counted);
    socket.destroy();
  };
  const counted = (): void => {
    if (socket.bytesRead - startedAt >= drain.bytes) close();
  };
  const timer = setTimeout(close, drain.ms);
  timer.unref();
  socket.on('data', counted);
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}

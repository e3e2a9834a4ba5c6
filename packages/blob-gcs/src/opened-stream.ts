import { Readable } from 'node:stream';
import { asBuffer } from '@patchbay/platform';

/** What `openedStream` throws when the server is silent for `idleMs` (given to `translate`). */
class IdleTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(idleMs: number) {
    super(`no data for ${idleMs} ms`);
  }
}

/**
 * Resolves once `src` has produced its first chunk (or ended), with a stream of all of it and its
 * errors translated; rejects with the translated error if `src` fails first. A wait of more than
 * `idleMs` for the server's next chunk (not for the consumer) destroys `src` and fails with IdleTimeout.
 *
 * `File.createReadStream` returns at once and only then sends the request, reporting a missing
 * object as a later 'error' on the stream, with no time limit at all; the port's `get` must reject
 * instead, and never hang. Destroying the result destroys `src`, which aborts the HTTP response.
 */
export async function openedStream(
  src: Readable,
  translate: (err: unknown) => unknown,
  idleMs: number,
): Promise<Readable> {
  const it: AsyncIterator<unknown> = src[Symbol.asyncIterator]();
  const next = () => withDeadline(it.next(), idleMs, () => src.destroy());
  let first: IteratorResult<unknown>;
  try {
    first = await next();
  } catch (err) {
    src.destroy();
    throw translate(err);
  }
  return Readable.from(rest(first, next, it, translate), { objectMode: false });
}

async function* rest(
  first: IteratorResult<unknown>,
  next: () => Promise<IteratorResult<unknown>>,
  it: AsyncIterator<unknown>,
  translate: (err: unknown) => unknown,
): AsyncGenerator<Buffer> {
  try {
    if (first.done) return;
    yield asBuffer(first.value);
    for (let chunk = await next(); !chunk.done; chunk = await next()) yield asBuffer(chunk.value);
  } catch (err) {
    throw translate(err);
  } finally {
    await it.return?.(); // early exit (the consumer destroyed us): destroy src
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new IdleTimeout(ms));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

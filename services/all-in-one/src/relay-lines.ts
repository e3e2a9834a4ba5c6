import type { Readable } from 'node:stream';
import { stdoutSink } from '@patchbay/platform';

/**
 * Writes a service's output lines to the launcher's stdout, each prefixed by the service's name,
 * through the launcher's bounded output (a reader that stops reading never blocks the launcher, so
 * it keeps reading its services' pipes and they never block either).
 */
export function relayLines(name: string, streams: Array<Readable | null>): void {
  const prefix = `[${name}] `;
  for (const stream of streams) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) stdoutSink().write(prefix + line + '\n');
    });
  }
}

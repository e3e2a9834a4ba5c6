import pino from 'pino';
import type { Logger } from '../logging/logger';

/** A logger whose lines a test reads back (parsed JSON), for "it was logged" checks. */
export function captureLogger(level = 'info'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level },
    {
      write: (line: string) => {
        // why: pino writes one JSON object per line.
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines };
}

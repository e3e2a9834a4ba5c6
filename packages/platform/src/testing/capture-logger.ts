import pino from 'pino';
import { isJsonObject } from '../basics/json-object';
import type { Logger } from '../logging/logger';

/** A logger whose lines a test reads back (parsed JSON), for "it was logged" checks. */
export function captureLogger(level = 'info'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level },
    {
      write: (line: string) => {
        // pino writes one JSON object per line.
        const entry: unknown = JSON.parse(line);
        if (!isJsonObject(entry)) throw new Error(`not a log line: ${line}`);
        lines.push(entry);
      },
    },
  );
  return { logger, lines };
}

import type { Readable } from 'node:stream';
import { stdoutSink, type LogFormat } from '@patchbay/platform';

/**
 * One line of a service's output as the launcher writes it (issue 44). JSON (piped, or
 * LOG_FORMAT=json): every line stays one JSON object, the service (its replica's name, e.g.
 * `file-server-2`) a field of it — a log line gets `"service"` added first, anything else a service
 * writes (a start-up error on stderr) becomes the `msg` of a line of its own. Readable (a terminal):
 * the line behind `[service] `.
 */
export function relayedLine(service: string, line: string, format: LogFormat, fromStderr: boolean): string {
  if (format === 'pretty') return `[${service}] ${line}`;
  const text = line.trimEnd();
  if (text.startsWith('{') && text.endsWith('}')) {
    const rest = text.slice(1).trimStart();
    return `{"service":${JSON.stringify(service)}${rest === '}' ? '' : ','}${rest}`;
  }
  return JSON.stringify({
    level: fromStderr ? 50 : 30,
    time: new Date().toISOString(),
    service,
    msg: text,
  });
}

/**
 * Writes a service's output lines to the launcher's stdout (relayedLine), through the launcher's
 * bounded output: a reader that stops reading never blocks the launcher, so it keeps reading its
 * services' pipes and they never block either.
 */
export function relayLines(service: string, out: Readable | null, err: Readable | null, format: LogFormat): void {
  for (const [stream, fromStderr] of [
    [out, false],
    [err, true],
  ] as const) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines)
        if (line !== '') stdoutSink().write(`${relayedLine(service, line, format, fromStderr)}\n`);
    });
  }
}

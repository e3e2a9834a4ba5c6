import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { stdoutSink } from './log-sink';
import { activeTraceIds } from '../tracing/span-helpers';
import { fieldOf } from '../basics/error-fields';

export type { Logger };

/** How log lines are written: JSON (machines, log shippers) or one readable line per event (people). */
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT's values: `auto` (the default) is `pretty` on a terminal and `json` anywhere else. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

/**
 * The format for `setting` (LOG_FORMAT) when writing to `out`: an explicit `json` or `pretty` wins;
 * `auto` or unset means pretty only when `out` is a terminal, so piped output, files and
 * containers always get JSON.
 */
export function resolveLogFormat(setting: string | undefined, out: { isTTY?: boolean } = process.stdout): LogFormat {
  if (setting === 'json' || setting === 'pretty') return setting;
  return out.isTTY === true ? 'pretty' : 'json';
}

/** Keys that may carry a credential; their values are replaced before any format sees them. */
const REDACT = [
  'password',
  '*.password',
  'access_token',
  '*.access_token',
  'token',
  '*.token',
  'req.headers.authorization',
  '*.google_credentials',
  '*.apns_p12',
  '*.apns_p8',
  '*.apns_p12_password',
  // External containers' and Patchbay's own object storage credentials (decisions §28).
  'credentials',
  '*.credentials',
  '*.*.credentials',
  '*.secret_access_key',
  '*.account_key',
  '*.sas_token',
  '*.service_account_json',
  'AWS_SECRET_ACCESS_KEY',
  '*.AWS_SECRET_ACCESS_KEY',
  // An object storage SDK's error logged as is carries its request: Azure's URL holds a SAS token,
  // Google's config an access token. Message and code stay. (pino writes a `cause` as its message
  // and stack only.)
  'err.request',
  'err.response',
  'err.config',
];

/** `Error: disk full (at file.ts:11:18)`: pino's serialized error in one line. */
function oneLineError(value: unknown): string {
  if (!value || typeof value !== 'object') return String(value);
  const text = (key: string): string | undefined => {
    const v = fieldOf(value, key);
    return typeof v === 'string' ? v : undefined;
  };
  const where = /\n\s+at (?:.*\()?([^()\s]+:\d+:\d+)\)?/.exec(text('stack') ?? '')?.[1];
  return `${text('type') ?? 'Error'}: ${text('message') ?? ''}${where ? ` (at ${where})` : ''}`;
}

/**
 * One line per event for a person at a terminal: time, level, `[svc/mod]`, the message, then the
 * other fields inline. Formatted as pino writes each line and queued on the process's one output
 * sink (log-sink.ts), so it keeps its order with the start banner and never blocks the process.
 */
function readableStream(): pino.DestinationStream {
  const format = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // `err` joins the message (type, message, where it was thrown): a stack would take many lines.
    // The JSON format keeps the whole stack.
    ignore: 'pid,hostname,name,svc,mod,err,span_id',
    messageFormat: (log, messageKey) => {
      // `[storage/uploads]`; a service's own module (`[storage/storage]`) is just `[storage]`.
      const where = [...new Set([log.svc, log.mod].filter((v) => typeof v === 'string' && v !== ''))].join('/');
      const err = log.err ? ` — ${oneLineError(log.err)}` : '';
      return `${where ? `[${where}] ` : ''}${String(log[messageKey] ?? '')}${err}`;
    },
  });
  const sink = stdoutSink();
  return { write: (line: string) => sink.write(format(line)) };
}

/**
 * The process's logger; modules take `logger.child({svc, mod})`. `format` (default json) decides
 * how lines are written (resolveLogFormat). A line written inside a span carries `trace_id` and
 * `span_id`. Credentials never reach a log line in either format:
 * the usual carriers are redacted by pino before formatting. Lines go to stdout through the
 * process's one sink (log-sink.ts): asynchronous and bounded, so logging never blocks the process;
 * lines dropped while nobody read are counted and the count logged once output flows again.
 */
export function createLogger(opts: {
  name: string;
  level?: string;
  format?: LogFormat;
  /** Where JSON lines go (default stdout; tests read them back). */
  destination?: pino.DestinationStream;
}): Logger {
  const options: pino.LoggerOptions = {
    name: opts.name,
    level: opts.level ?? 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: '[redacted]' },
    // Every line written while a span is active carries its trace_id and span_id (none: nothing added).
    mixin: activeTraceIds,
  };
  const logger = opts.destination
    ? pino(options, opts.destination)
    : pino(options, opts.format === 'pretty' ? readableStream() : stdoutSink().stream);
  if (!opts.destination)
    stdoutSink().onRecovered((dropped) =>
      logger.warn({ dropped_lines: dropped }, 'log output was not read for a while: lines dropped'),
    );
  return logger;
}

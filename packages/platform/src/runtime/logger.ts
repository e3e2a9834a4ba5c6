import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs on stdout, one logger per process; modules take `logger.child({svc, mod})`.
 * Credentials never reach a log line: the usual carriers are redacted.
 */
export function createLogger(opts: { name: string; level?: string }): Logger {
  return pino({
    name: opts.name,
    level: opts.level ?? 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['password', '*.password', 'access_token', '*.access_token', 'token', '*.token', 'req.headers.authorization', '*.google_credentials', '*.apns_p12', '*.apns_p8', '*.apns_p12_password'],
      censor: '[redacted]',
    },
  });
}

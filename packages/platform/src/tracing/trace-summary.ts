import type { TraceExport, TraceSampling } from './trace-settings';

/** The OTLP/HTTP traces URL the exporter sends to, as the specification builds it from the variables. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string {
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (signal) return signal;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** A URL fit for a log line: no user or password, no query (either may hold a collector's credentials). */
function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

function sampled({ ratio, parentBased }: TraceSampling): string {
  const share =
    ratio >= 1 ? 'every new trace' : ratio <= 0 ? 'no new trace' : `${+(ratio * 100).toFixed(4)}% of new traces`;
  return parentBased ? `${share}, and what a caller's trace decided` : share;
}

/**
 * The one start-up line of a process that traces: its service name, where the spans go (the OTLP
 * URL without credentials; OTEL_EXPORTER_OTLP_HEADERS are never shown), and which are kept.
 */
export function describeTracing(
  how: Exclude<TraceExport, { kind: 'off' }>,
  sampling: TraceSampling,
  serviceName: string,
  env: NodeJS.ProcessEnv,
): string {
  const where =
    how.kind === 'otlp'
      ? `over OTLP ${how.protocol} to ${shown(otlpTracesUrl(env))}`
      : how.kind === 'console'
        ? 'to the console (stdout)'
        : `to the test file ${how.file}`;
  return `tracing on: service ${serviceName}, spans exported ${where}; sampling ${sampled(sampling)}`;
}

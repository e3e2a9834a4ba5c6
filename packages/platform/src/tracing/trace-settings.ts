import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fieldOf } from '../basics/error-fields';

/**
 * How this process exports traces, decided from the standard OpenTelemetry variables — the one
 * place Patchbay reads them (the OTLP exporters read their own endpoint, headers and timeout
 * variables themselves). Tracing is off, with no SDK loaded, unless one of them asks for it:
 *
 *  - `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`: off;
 *  - `OTEL_TRACES_EXPORTER=otlp` or `console`: that exporter;
 *  - else `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` set: OTLP;
 *  - else off.
 *
 * OTLP goes over HTTP, as protobuf (the default) or JSON: `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or
 * `OTEL_EXPORTER_OTLP_PROTOCOL`, `http/protobuf` or `http/json`. `PATCHBAY_TRACES_TEST_FILE`
 * (tests only) writes each finished span as a JSON line to that file instead, so a test can read
 * the spans of processes it started.
 */
export type TraceExport =
  { kind: 'off' } | { kind: 'otlp'; protocol: OtlpProtocol } | { kind: 'console' } | { kind: 'file'; file: string };

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Which traces are kept (OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the specification
 * names them): `ratio` keeps that share of new traces; `parentBased` follows the caller's decision
 * when a message or request names one. Default: parent-based, every trace.
 */
export interface TraceSampling {
  ratio: number;
  parentBased: boolean;
}

export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export function traceSampling(env: NodeJS.ProcessEnv): TraceSampling {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  if (!(TRACE_SAMPLERS as readonly string[]).includes(name))
    throw new TraceSettingsError(`OTEL_TRACES_SAMPLER: "${name}" is not supported (${TRACE_SAMPLERS.join(', ')})`);
  const parentBased = name.startsWith('parentbased_');
  if (name.endsWith('always_on')) return { ratio: 1, parentBased };
  if (name.endsWith('always_off')) return { ratio: 0, parentBased };
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new TraceSettingsError(`OTEL_TRACES_SAMPLER_ARG: "${arg}" is not a ratio between 0 and 1`);
  return { ratio, parentBased };
}
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** A tracing variable with a value Patchbay cannot honour: start-up stops naming it. */
export class TraceSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function traceExport(env: NodeJS.ProcessEnv): TraceExport {
  const value = (key: string) => env[key]?.trim() || undefined;
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { kind: 'off' };
  const file = value('PATCHBAY_TRACES_TEST_FILE');
  if (file) return { kind: 'file', file };
  // A list is allowed by the specification; Patchbay exports to one place, the first named.
  const exporter = value('OTEL_TRACES_EXPORTER')?.split(',')[0].trim().toLowerCase();
  if (exporter === 'none') return { kind: 'off' };
  if (exporter === 'console') return { kind: 'console' };
  if (exporter !== undefined && exporter !== 'otlp')
    throw new TraceSettingsError(`OTEL_TRACES_EXPORTER: "${exporter}" is not supported (otlp, console or none)`);
  if (exporter === undefined && !value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') && !value('OTEL_EXPORTER_OTLP_ENDPOINT'))
    return { kind: 'off' };
  const protocolKey = value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = value(protocolKey) ?? 'http/protobuf';
  const known = OTLP_PROTOCOLS.find((p) => p === protocol);
  if (!known)
    throw new TraceSettingsError(`${protocolKey}: "${protocol}" is not supported (${OTLP_PROTOCOLS.join(' or ')})`);
  return { kind: 'otlp', protocol: known };
}

/**
 * The service name spans carry: OTEL_SERVICE_NAME when set, else the service whose entry point
 * runs — `services/<name>/src/main.ts` under tsx, or a bundle's `main.js` beside the package.json
 * of `@patchbay/<name>` (the images: `pnpm deploy` puts it there) — as `patchbay-<name>`; the
 * all-in-one process, and anything else, is `patchbay`.
 */
export function traceServiceName(
  env: NodeJS.ProcessEnv,
  entry: string | undefined,
  packageNameBeside: (file: string) => string | undefined = readPackageName,
): string {
  const given = env.OTEL_SERVICE_NAME?.trim();
  if (given) return given;
  const service =
    /services[\\/]([a-z0-9-]+)[\\/]src[\\/]/.exec(entry ?? '')?.[1] ??
    /^@patchbay\/([a-z0-9-]+)$/.exec((entry && packageNameBeside(entry)) || '')?.[1];
  if (!service || service === 'all-in-one') return 'patchbay';
  return `patchbay-${service}`;
}

function readPackageName(file: string): string | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(path.join(path.dirname(file), 'package.json'), 'utf8'));
    const name = fieldOf(pkg, 'name');
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

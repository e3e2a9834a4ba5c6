import type { InstalledTracing } from './install-tracing';
import { traceExport, traceSampling, traceServiceName } from './trace-settings';
import { describeTracing } from './trace-summary';

let installed: InstalledTracing | undefined;
/** The start-up line's text while tracing runs (trace-summary.ts). */
let summary: string | undefined;

/**
 * Starts the OpenTelemetry SDK for this process when the OTEL_* variables ask for it
 * (trace-settings.ts), and does nothing otherwise: no SDK module is even loaded, and the API's
 * no-op tracer answers every span. Synchronous on purpose — the SDK's instrumentations patch
 * node:http, express and mongodb as they are required, so it runs before any of them is: every
 * entry point's first import is `runtime/register.ts`, which calls this.
 * A setting it cannot honour stops the process at once, naming it.
 */
export function startTracing(
  env: NodeJS.ProcessEnv = process.env,
  entry: string | undefined = process.argv[1],
): boolean {
  if (installed) return true;
  const how = traceExport(env);
  if (how.kind === 'off') return false;
  const sampling = traceSampling(env);
  // Loaded here, not imported at the top: a process with tracing off never loads the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports -- synchronous on purpose (see above) */
  const { installTracing } = require('./install-tracing') as typeof import('./install-tracing');
  const { spanProcessorFor } = require('./span-exporters') as typeof import('./span-exporters');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const serviceName = traceServiceName(env, entry);
  installed = installTracing({ serviceName, processors: [spanProcessorFor(how)], instrument: true, sampling });
  summary = describeTracing(how, sampling, serviceName, env);
  return true;
}

/**
 * What the start-up line says while tracing runs — as what, where spans go and which are kept
 * (`tracing on: service patchbay, spans exported over OTLP http/protobuf to http://host:4318/v1/traces; …`);
 * undefined while it is off. runProcess logs it once.
 */
export function tracingSummary(): string | undefined {
  return installed ? summary : undefined;
}

/** Whether the SDK runs in this process (the stores are wrapped in spans only then). */
export function tracingStarted(): boolean {
  return installed !== undefined;
}

/** Exports the spans still buffered and stops the SDK (a graceful stop, before the process exits). */
export async function stopTracing(): Promise<void> {
  const done = installed;
  installed = undefined;
  summary = undefined;
  await done?.shutdown();
}

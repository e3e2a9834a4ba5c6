import type { InstalledTracing } from './install-tracing';
import { traceExport, traceSampling, traceServiceName } from './trace-settings';

let installed: InstalledTracing | undefined;

/**
 * Starts the OpenTelemetry SDK for this process when the OTEL_* variables ask for it
 * (trace-settings.ts), and does nothing otherwise: no SDK module is even loaded, and the API's
 * no-op tracer answers every span. Synchronous on purpose — the SDK's instrumentations patch
 * node:http, express and mongodb as they are required, so it runs before any of them is: every
 * entry point's first import is `tracing/register.ts`, which calls this.
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
  installed = installTracing({
    serviceName: traceServiceName(env, entry),
    processors: [spanProcessorFor(how)],
    instrument: true,
    sampling,
  });
  return true;
}

/** Whether the SDK runs in this process (the stores are wrapped in spans only then). */
export function tracingStarted(): boolean {
  return installed !== undefined;
}

/** Exports the spans still buffered and stops the SDK (a graceful stop, before the process exits). */
export async function stopTracing(): Promise<void> {
  const done = installed;
  installed = undefined;
  await done?.shutdown();
}

/**
 * The first import of every Patchbay entry point (`import '@patchbay/platform/src/runtime/register'`):
 * sets the garbage collector up (basics/heap-settings.ts) and starts tracing before any
 * instrumented module is loaded, when OTEL_* variables ask for it (start-tracing.ts). It imports
 * nothing else of the platform, so nothing is loaded before it. Before any of that, an unsupported
 * Node.js stops the process with a plain message: an older V8 would first complain about the
 * garbage collector's flags it does not know.
 */
import './require-node';
import { applyHeapSettings } from '../basics/heap-settings';
import { startTracing } from '../tracing/start-tracing';
import { TraceSettingsError } from '../tracing/trace-settings';

applyHeapSettings();
try {
  startTracing();
} catch (err) {
  if (!(err instanceof TraceSettingsError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

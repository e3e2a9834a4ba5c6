import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { HeadDecidedSampler, setHeadSampling } from './head-sampling';
import type { TraceSampling } from './trace-settings';

/** Paths of the operations port that are polled, not used: no span for each probe. */
const PROBES = new Set(['/health', '/metrics']);

export interface InstalledTracing {
  /** Exports what is still buffered and stops the processors. */
  shutdown(): Promise<void>;
}

/**
 * Makes the OpenTelemetry SDK the process's tracer: context kept across `await`s
 * (AsyncLocalStorage), W3C trace context and baggage as the propagators, spans handed to
 * `processors`. With `instrument`, the OpenTelemetry project's instrumentations of node:http
 * (server and client), express and the MongoDB driver are registered too: they patch those modules
 * as they are loaded, so this must run before anything requires them (start-tracing.ts, loaded
 * first by every entry point). Tests call it with an in-memory exporter and no instrumentations.
 */
export function installTracing(opts: {
  serviceName: string;
  processors: SpanProcessor[];
  instrument?: boolean;
  /** Default: parent-based, every trace. */
  sampling?: TraceSampling;
}): InstalledTracing {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const sampling = opts.sampling ?? { ratio: 1, parentBased: true };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.serviceName }),
    spanProcessors: opts.processors,
    sampler: new HeadDecidedSampler(samplerFor(sampling)),
  });
  setHeadSampling(sampling);
  trace.setGlobalTracerProvider(provider);
  const unregister = opts.instrument
    ? registerInstrumentations({
        tracerProvider: provider,
        instrumentations: [
          new HttpInstrumentation({
            ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]),
          }),
          new ExpressInstrumentation(),
          new MongoDBInstrumentation(),
        ],
      })
    : () => undefined;
  return {
    shutdown: async () => {
      unregister();
      setHeadSampling(undefined);
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

function samplerFor({ ratio, parentBased }: TraceSampling): Sampler {
  const root =
    ratio >= 1 ? new AlwaysOnSampler() : ratio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parentBased ? new ParentBasedSampler({ root }) : root;
}

import { Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process, with Node's default metrics, labelled by service. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

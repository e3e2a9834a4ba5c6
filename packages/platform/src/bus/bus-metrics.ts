import { Counter, Histogram, type Registry } from 'prom-client';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/** The bus's Prometheus series, one set per registry (the all-in-one process shares one registry). */
export interface BusMetrics {
  /** Requests sent, by subject and outcome: the reply's status, `timeout` (504) or `unavailable` (503). */
  requests: Counter<'subject' | 'outcome'>;
  requestSeconds: Histogram<'subject'>;
  /** Requests answered here, by subject and reply status. */
  served: Counter<'subject' | 'status'>;
  servedSeconds: Histogram<'subject'>;
  /** Events and jobs sent, by subject, kind (event|job) and result (ok|failed). */
  published: Counter<'subject' | 'kind' | 'result'>;
  /** Events, jobs and listened messages handled here, by subject, kind and result (ok|failed). */
  handled: Counter<'subject' | 'kind' | 'result'>;
  handledSeconds: Histogram<'subject' | 'kind'>;
}

const byRegistry = new WeakMap<Registry, BusMetrics>();

/** The bus metrics of `registry`, created on first use. */
export function busMetrics(registry: Registry): BusMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    const registers = [registry];
    m = {
      requests: new Counter({
        name: 'bus_requests_total',
        help: 'Bus requests sent, by subject and outcome (reply status, timeout, unavailable)',
        labelNames: ['subject', 'outcome'],
        registers,
      }),
      requestSeconds: new Histogram({
        name: 'bus_request_duration_seconds',
        help: 'Bus request round trip as seen by the caller',
        labelNames: ['subject'],
        buckets: SECONDS,
        registers,
      }),
      served: new Counter({
        name: 'bus_served_total',
        help: 'Bus requests answered by this process, by subject and reply status',
        labelNames: ['subject', 'status'],
        registers,
      }),
      servedSeconds: new Histogram({
        name: 'bus_serve_duration_seconds',
        help: 'Time this process took to answer a bus request',
        labelNames: ['subject'],
        buckets: SECONDS,
        registers,
      }),
      published: new Counter({
        name: 'bus_published_total',
        help: 'Durable events and jobs sent, by subject, kind and result',
        labelNames: ['subject', 'kind', 'result'],
        registers,
      }),
      handled: new Counter({
        name: 'bus_handled_total',
        help: 'Events, jobs and fan-out messages handled here, by subject, kind and result',
        labelNames: ['subject', 'kind', 'result'],
        registers,
      }),
      handledSeconds: new Histogram({
        name: 'bus_handle_duration_seconds',
        help: 'Time spent handling an event or a job',
        labelNames: ['subject', 'kind'],
        buckets: SECONDS,
        registers,
      }),
    };
    byRegistry.set(registry, m);
  }
  return m;
}

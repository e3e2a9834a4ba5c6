import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type Consumer,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from 'nats';
import { Streams } from '@patchbay/contracts';
import { JsErr, jsErrorCode } from './nats-errors';

type StreamSpec = (typeof Streams)[keyof typeof Streams];

/**
 * Limits a deployment sets on the streams (NATS_EVENTS_MAX_AGE, NATS_EVENTS_MAX_BYTES,
 * NATS_STREAM_REPLICAS). A field left undefined is not managed: a process without the setting
 * never undoes what another one set.
 */
export interface StreamLimits {
  /** Seconds an event is kept (0 = forever). */
  eventsMaxAgeS?: number;
  /** Bytes the events stream may hold; the oldest events go first (0 = no limit). */
  eventsMaxBytes?: number;
  /** Copies of each stream on a NATS cluster. */
  replicas?: number;
}

/**
 * Creates, or brings up to date, the two streams every process relies on: PATCHBAY_EVENTS
 * (limits retention: events are kept so a late durable gets the history) and PATCHBAY_JOBS
 * (work-queue retention: a job is removed once acknowledged). Safe to run from many processes at once.
 */
export async function ensureStreams(jsm: JetStreamManager, limits: StreamLimits = {}): Promise<void> {
  await ensureStream(jsm, Streams.events, RetentionPolicy.Limits, {
    ...(limits.eventsMaxAgeS !== undefined ? { max_age: nanos(limits.eventsMaxAgeS * 1000) } : {}),
    ...(limits.eventsMaxBytes !== undefined
      ? { max_bytes: limits.eventsMaxBytes === 0 ? -1 : limits.eventsMaxBytes }
      : {}),
    ...(limits.replicas !== undefined ? { num_replicas: limits.replicas } : {}),
  });
  await ensureStream(
    jsm,
    Streams.jobs,
    RetentionPolicy.Workqueue,
    limits.replicas !== undefined ? { num_replicas: limits.replicas } : {},
  );
}

async function ensureStream(
  jsm: JetStreamManager,
  spec: StreamSpec,
  retention: RetentionPolicy,
  managed: Partial<StreamConfig>,
): Promise<void> {
  const subjects = [...spec.subjects];
  try {
    const info = await jsm.streams.info(spec.name);
    const stale = Object.entries(managed).some(([k, v]) => info.config[k as keyof StreamConfig] !== v);
    if (info.config.subjects.join() !== subjects.join() || stale)
      await jsm.streams.update(spec.name, { ...info.config, ...managed, subjects });
    return;
  } catch (err) {
    if (jsErrorCode(err) !== JsErr.streamNotFound) throw err;
  }
  // Two processes may race to create it; identical configs make the second add a no-op.
  await jsm.streams.add({ name: spec.name, subjects, retention, storage: StorageType.File, ...managed });
}

/**
 * Binds (creating on first use) a durable pull consumer with explicit acks. First creation
 * delivers from the start of the stream (a new durable gets the history); an existing consumer
 * keeps its position and gets its ack wait updated if it changed. Redelivery limits are enforced
 * by the client (see `settle`), so the server never strands a message at max deliveries.
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  js: JetStreamClient,
  spec: { stream: string; name: string; filter: string; ackWaitMs: number },
): Promise<Consumer> {
  const ackWait = nanos(spec.ackWaitMs);
  try {
    const info = await jsm.consumers.info(spec.stream, spec.name);
    if (info.config.ack_wait !== ackWait) await jsm.consumers.update(spec.stream, spec.name, { ack_wait: ackWait });
  } catch (err) {
    if (jsErrorCode(err) !== JsErr.consumerNotFound) throw err;
    await jsm.consumers.add(spec.stream, {
      durable_name: spec.name,
      filter_subject: spec.filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: ackWait,
      max_deliver: -1,
    });
  }
  return js.consumers.get(spec.stream, spec.name);
}

/** Jobs not yet acknowledged on `subject`: the consumer's pending plus ack-pending, else what the stream holds. */
export async function pendingJobs(jsm: JetStreamManager, consumer: string, subject: string): Promise<number> {
  try {
    const info = await jsm.consumers.info(Streams.jobs.name, consumer);
    return info.num_pending + info.num_ack_pending;
  } catch (err) {
    if (jsErrorCode(err) !== JsErr.consumerNotFound) throw err;
  }
  const info = await jsm.streams.info(Streams.jobs.name, { subjects_filter: subject });
  return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
}

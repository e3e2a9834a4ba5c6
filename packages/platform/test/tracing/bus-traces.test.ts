import { Writable } from 'node:stream';
import { context, trace, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { Registry } from 'prom-client';
import { ok } from '@patchbay/contracts';
import type { Bus } from '../../src/bus/port';
import { InstrumentedBus } from '../../src/bus/instrumented-bus';
import { MemoryBus } from '../../src/bus/memory-bus';
import { NatsBus } from '../../src/bus/nats-bus';
import { createLogger } from '../../src/logging/logger';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';
import { installTracing, type InstalledTracing } from '../../src/tracing/install-tracing';
import { tracer } from '../../src/tracing/span-helpers';
import { eventually } from '../bus/bus-test-kit';

/**
 * Trace context across the bus (decisions §42), through both adapters: every message sent through
 * InstrumentedBus carries its client/producer span's context, the handler's span is that span's
 * child, and a message that carries none starts a new trace. The SDK with an in-memory exporter.
 */
const exporter = new InMemorySpanExporter();
let installed: InstalledTracing;
let nats: NatsServerHandle;
beforeAll(async () => {
  installed = installTracing({ serviceName: 'bus-test', processors: [new SimpleSpanProcessor({ exporter })] });
  nats = await startNatsServer();
});
afterAll(async () => {
  await installed?.shutdown();
  await nats?.stop();
});
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name: string): ReadableSpan => {
  const found = spans().filter((s) => s.name === name);
  if (found.length !== 1)
    throw new Error(
      `expected one span ${name}, got ${spans()
        .map((s) => s.name)
        .join(', ')}`,
    );
  return found[0];
};
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;

/** Runs `work` inside a span of the test's own, as a gateway's HTTP span would be. */
async function inOuterSpan<T>(work: (outer: Span) => Promise<T>): Promise<T> {
  const outer = tracer().startSpan('outer');
  try {
    return await context.with(trace.setSpan(context.active(), outer), () => work(outer));
  } finally {
    outer.end();
  }
}

type Adapter = {
  name: string;
  open: (maxPayload?: number) => Promise<{ raw: () => Promise<Bus>; close: () => Promise<void> }>;
};
const adapters: Adapter[] = [
  {
    name: 'MemoryBus',
    open: async (maxPayload) => {
      const hub = MemoryBus.hub({ maxPayload });
      const made: Bus[] = [];
      return {
        raw: async () => {
          const b = new MemoryBus(hub);
          made.push(b);
          return b;
        },
        close: async () => void (await Promise.all(made.map((b) => b.close()))),
      };
    },
  },
  {
    name: 'NatsBus',
    open: async (maxPayload) => {
      const made: Bus[] = [];
      return {
        raw: async () => {
          const b = await NatsBus.connect({ url: nats.url, maxPayload });
          made.push(b);
          return b;
        },
        close: async () => void (await Promise.all(made.map((b) => b.close()))),
      };
    },
  },
];

describe.each(adapters)('trace context over $name', ({ open }) => {
  let close: () => Promise<void>;
  afterEach(() => close?.());
  const instrumented = (b: Bus) => new InstrumentedBus(b, new Registry());

  test(
    'a request is a client span, its handler a server span beneath it, and ' + 'the handler’s own call beneath that',
    async () => {
      const medium = await open();
      close = medium.close;
      const [a, b, c] = [
        instrumented(await medium.raw()),
        instrumented(await medium.raw()),
        instrumented(await medium.raw()),
      ];
      await c.serve('svc.t2.thing.get', 't2', async () => ok({ leaf: true }));
      await b.serve('svc.t1.thing.get', 't1', async () => ok(await b.request('svc.t2.thing.get', {})));
      const outer = await inOuterSpan(async (o) => {
        expect(await a.request('svc.t1.thing.get', {})).toMatchObject({ body: { body: { leaf: true } } });
        return o;
      });
      const [client1, server1] = [named('request svc.t1.thing.get'), named('serve svc.t1.thing.get')];
      const [client2, server2] = [named('request svc.t2.thing.get'), named('serve svc.t2.thing.get')];
      expect(parentOf(client1)).toBe(outer.spanContext().spanId);
      expect(parentOf(server1)).toBe(idOf(client1));
      expect(parentOf(client2)).toBe(idOf(server1));
      expect(parentOf(server2)).toBe(idOf(client2));
      for (const s of [client1, server1, client2, server2]) expect(traceOf(s)).toBe(outer.spanContext().traceId);
      expect(server1.attributes['patchbay.bus.status']).toBe(200);
    },
  );

  test('a request that carries no trace context starts a new trace, even sent from inside a span', async () => {
    const medium = await open();
    close = medium.close;
    const server = instrumented(await medium.raw());
    const plain = await medium.raw(); // no InstrumentedBus: nothing is written on the message
    await server.serve('svc.t3.thing.get', 't3', async () => ok(null));
    const outer = await inOuterSpan(async (o) => {
      await plain.request('svc.t3.thing.get', {});
      return o;
    });
    const served = named('serve svc.t3.thing.get');
    expect(served.parentSpanContext).toBeUndefined();
    expect(traceOf(served)).not.toBe(outer.spanContext().traceId);
  });

  test(
    'events, jobs and listened messages: the handler’s consumer span is ' + 'the child of the producer span',
    async () => {
      const medium = await open();
      close = medium.close;
      const [pub, sub] = [instrumented(await medium.raw()), instrumented(await medium.raw())];
      const subject = `evt.tracetest${Math.random().toString(36).slice(2, 8)}.created`;
      const job = `job.tracetest${Math.random().toString(36).slice(2, 8)}.run`;
      const got: string[] = [];
      await sub.subscribe(subject, 'traces', async () => void got.push('event'));
      await sub.work(job, 'traces', async () => void got.push('job'));
      await sub.listen!(subject, async () => void got.push('listen'));
      await inOuterSpan(async () => {
        await pub.publish(subject, { a: 1 });
        await pub.enqueue(job, { b: 2 });
      });
      await eventually(() => expect(got.sort()).toEqual(['event', 'job', 'listen']));
      await eventually(() => expect(spans().filter((s) => s.name.startsWith('process ')).length).toBe(3));
      const [published, enqueued] = [named(`publish ${subject}`), named(`publish ${job}`)];
      const consumers = spans().filter((s) => s.name === `process ${subject}`);
      expect(consumers).toHaveLength(2); // the durable subscriber and the listener
      for (const c of consumers) expect(parentOf(c)).toBe(idOf(published));
      expect(parentOf(named(`process ${job}`))).toBe(idOf(enqueued));
      expect(new Set(spans().map(traceOf)).size).toBe(1);
    },
  );

  test('a request and an event too large for one message (chunked, stored) keep their trace context', async () => {
    const medium = await open(64 * 1024);
    close = medium.close;
    const [a, b] = [instrumented(await medium.raw()), instrumented(await medium.raw())];
    const big = { text: 'x'.repeat(300 * 1024) };
    const subject = `evt.tracebig${Math.random().toString(36).slice(2, 8)}.created`;
    let events = 0;
    await b.serve('svc.t4.thing.put', 't4', async (p) => ok({ size: JSON.stringify(p).length }));
    await b.subscribe(subject, 'traces', async () => void events++);
    await inOuterSpan(async () => {
      expect((await a.request('svc.t4.thing.put', big)).status).toBe(200);
      await a.publish(subject, big);
    });
    await eventually(() => expect(events).toBe(1));
    await eventually(() => expect(spans().some((s) => s.name === `process ${subject}`)).toBe(true));
    expect(parentOf(named('serve svc.t4.thing.put'))).toBe(idOf(named('request svc.t4.thing.put')));
    expect(parentOf(named(`process ${subject}`))).toBe(idOf(named(`publish ${subject}`)));
  });
});

test(
  'log lines written while a handler runs carry its trace_id and ' + 'span_id; lines outside any span carry neither',
  async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const log = createLogger({ name: 'trace-logs', destination });
    const hub = MemoryBus.hub();
    const [a, b] = [
      new InstrumentedBus(new MemoryBus(hub), new Registry()),
      new InstrumentedBus(new MemoryBus(hub), new Registry()),
    ];
    await b.serve('svc.t5.thing.get', 't5', async () => {
      log.info('inside the handler');
      return ok(null);
    });
    log.info('outside');
    await a.request('svc.t5.thing.get', {});
    await Promise.all([a.close(), b.close()]);
    const served = named('serve svc.t5.thing.get');
    await eventually(() => expect(lines.some((l) => l.msg === 'inside the handler')).toBe(true));
    expect(lines.find((l) => l.msg === 'inside the handler')).toMatchObject({
      trace_id: traceOf(served),
      span_id: idOf(served),
    });
    const outside = lines.find((l) => l.msg === 'outside')!;
    expect(outside.trace_id).toBeUndefined();
    expect(outside.span_id).toBeUndefined();
  },
);

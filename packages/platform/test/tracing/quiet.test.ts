/**
 * Background loops look for work quietly (tracing/quiet.ts, decisions §52), over both bus adapters
 * with the SDK and an in-memory exporter: a look makes no span — not its store calls, not its bus
 * requests, not the handlers those reach in another process —; a job it enqueues starts a trace of
 * its own where it is processed; work it finds is a root span with its children.
 */
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { Registry } from 'prom-client';
import { ok } from '@patchbay/contracts';
import type { Bus } from '../../src/bus/port';
import { InstrumentedBus } from '../../src/bus/instrumented-bus';
import { MemoryBus } from '../../src/bus/memory-bus';
import { NatsBus } from '../../src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';
import { installTracing, type InstalledTracing } from '../../src/tracing/install-tracing';
import { activeTraceIds, inSpan, tracer } from '../../src/tracing/span-helpers';
import { backgroundWork, quietly } from '../../src/tracing/quiet';
import { consistently, eventually } from '../bus/bus-test-kit';

const exporter = new InMemorySpanExporter();
let installed: InstalledTracing;
let nats: NatsServerHandle;
beforeAll(async () => {
  installed = installTracing({ serviceName: 'quiet-test', processors: [new SimpleSpanProcessor({ exporter })] });
  nats = await startNatsServer();
});
afterAll(async () => {
  await installed?.shutdown();
  await nats?.stop();
});
beforeEach(() => exporter.reset());

const names = () => exporter.getFinishedSpans().map((s) => s.name);
const instrumented = (b: Bus) => new InstrumentedBus(b, new Registry());

const media: Array<{ name: string; pair: () => Promise<[Bus, Bus]> }> = [
  {
    name: 'MemoryBus',
    pair: async () => {
      const hub = MemoryBus.hub({});
      return [new MemoryBus(hub), new MemoryBus(hub)];
    },
  },
  {
    name: 'NatsBus',
    pair: async () => [await NatsBus.connect({ url: nats.url }), await NatsBus.connect({ url: nats.url })],
  },
];

describe.each(media)('over $name', ({ pair }) => {
  let buses: Bus[] = [];
  afterEach(async () => {
    await Promise.all(buses.map((b) => b.close()));
    buses = [];
  });

  test('a quiet look: no span for its own work, its request, the handler it reaches or what that does', async () => {
    const [ra, rb] = await pair();
    buses = [ra, rb];
    const [a, b] = [instrumented(ra), instrumented(rb)];
    const subject = `svc.quiet${Math.random().toString(36).slice(2, 8)}.look`;
    let ids: object | undefined;
    await b.serve(subject, 'q', async () => {
      ids = activeTraceIds();
      return ok(await inSpan('findOne outbox', {}, async () => 'nothing due'));
    });
    const reply = await quietly(() => inSpan('findOneAndUpdate outbox', {}, () => a.request(subject, {})));
    expect(JSON.stringify(reply)).toContain('nothing due');
    await consistently(() => expect(names()).toEqual([]), 50); // and no span ends late
    expect(ids).toEqual({}); // log lines of a quiet handler name no trace
  });

  test('a job enqueued by a quiet look starts its own trace where it is processed', async () => {
    const [ra, rb] = await pair();
    buses = [ra, rb];
    const [a, b] = [instrumented(ra), instrumented(rb)];
    const job = `job.quiet${Math.random().toString(36).slice(2, 8)}.sweep`;
    let done = false;
    await b.work(job, 'q', async () => {
      await inSpan('deleteMany files', {}, async () => undefined);
      done = true;
    });
    await quietly(() => a.enqueue(job, { window: 1 }));
    await eventually(() => expect(done).toBe(true));
    await eventually(() => expect(names()).toContain(`process ${job}`));
    const spans = exporter.getFinishedSpans();
    const processed = spans.find((s) => s.name === `process ${job}`)!;
    expect(processed.parentSpanContext).toBeUndefined();
    expect(spans.find((s) => s.name === 'deleteMany files')?.parentSpanContext?.spanId).toBe(
      processed.spanContext().spanId,
    );
    expect(names()).not.toContain(`publish ${job}`);
  });
});

test('work a loop finds is a root span of its own, even found quietly or inside another span', async () => {
  const outer = tracer().startSpan('request that scheduled it');
  await context.with(trace.setSpan(context.active(), outer), () =>
    quietly(() =>
      backgroundWork('voicemail callback deliver', {}, () => inSpan('endpoint callback', {}, async () => 1)),
    ),
  );
  outer.end();
  const spans = exporter.getFinishedSpans();
  const root = spans.find((s) => s.name === 'voicemail callback deliver')!;
  expect(root.parentSpanContext).toBeUndefined();
  expect(root.spanContext().traceId).not.toBe(outer.spanContext().traceId);
  expect(spans.find((s) => s.name === 'endpoint callback')?.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
});

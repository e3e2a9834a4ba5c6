/**
 * Background loops and traces (decisions §52), on an instance of this test's own that writes its
 * spans to a file (PATCHBAY_TRACES_TEST_FILE): start-up says once that tracing is on and where the
 * spans go; an idle instance makes no trace at all, though the Voicemail outbox is polled every
 * 500 ms; a callback it does deliver is one trace, rooted at the delivery.
 *
 * All-in-one only: a second distributed set of its own would cost this file a minute; the
 * distributed mode's start-up lines and idle silence are checked on the traced set that
 * tests/distributed/traces.test.ts starts anyway, and quiet requests across processes over a real
 * nats-server in packages/platform/test/tracing/quiet.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { RecordedSpan } from '../../packages/platform/src/tracing/file-span-exporter';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import { consistently, until } from '../support/poll';

const V2 = '/core/v2';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-quiet-traces-'));
const spanFile = path.join(dir, 'spans.jsonl');
let pb: PatchbayInstance;

beforeAll(async () => {
  // Only the api-embedded project runs this file (jest.config.js); distributed: tests/distributed/traces.test.ts.
  expect(mode()).toBe('embedded');
  pb = await startPatchbay('embedded', { PATCHBAY_TRACES_TEST_FILE: spanFile, LOG_LEVEL: 'info' });
}, 120_000);
afterAll(async () => {
  await pb?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const spans = (): RecordedSpan[] =>
  fs.existsSync(spanFile)
    ? fs
        .readFileSync(spanFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as RecordedSpan)
    : [];

describe('the all-in-one process, traced', () => {
  test('start-up says once that tracing is on, and where the spans go', () => {
    const lines = pb.startupOutput.split('\n').filter((l) => l.includes('tracing on: '));
    const said = lines.map((l) => /tracing on: service ([\w-]+), spans exported to the test file (\S+);/.exec(l));
    expect(said.every((m) => m !== null && m[2] === spanFile)).toBe(true);
    expect(said.map((m) => m![1])).toEqual(['patchbay']); // once
  });

  test('idle, nothing is traced: no root span in 3 s (six polls of the Voicemail outbox)', async () => {
    // What start-up itself traced has been written: no span marks the last of them, so a fixed allowance.
    await new Promise((r) => setTimeout(r, 500));
    const before = new Set(spans().map((s) => s.spanId));
    const made = () => spans().filter((s) => !before.has(s.spanId));
    // The idle period is the assertion; a span made in it fails at once.
    await consistently(() => expect(made().map((s) => `${s.service} ${s.name}`)).toEqual([]), 3000, 250);
  });

  test('a callback delivered is one trace, rooted at the delivery, with the attempt and its store writes', async () => {
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.method ?? '');
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`; // why: TCP server
      const auth = ['Authorization', `Bearer ${pb.token}`] as const;
      const vm = await request(pb.origin)
        .post(`${V2}/endpoints`)
        .set(...auth)
        .send({ type: 'voicemail', properties: { callback_url: url } });
      expect(vm.status).toBe(200);
      const rec = await request(pb.origin)
        .post(`${V2}/media/recordings?endpoint_sid=${vm.body.endpoint_sid}`)
        .set(...auth)
        .set('Content-Type', 'audio/wav')
        .send(tone('wav', 1));
      expect(rec.status).toBe(201);
      await until('the callback', 15_000, () => (received.length > 0 ? true : undefined));
      const trace = await until('the delivery trace', 10_000, () => {
        const all = spans();
        const root = all.find((s) => s.name === 'voicemail callback deliver' && !s.parentSpanId);
        const t = root ? all.filter((s) => s.traceId === root.traceId) : [];
        return t.some((s) => s.name === 'endpoint callback') && t.some((s) => s.name.startsWith('updateOne '))
          ? { root: root!, t }
          : undefined;
      });
      expect(trace.root.service).toBe('patchbay');
      const attempt = trace.t.find((s) => s.name === 'endpoint callback')!;
      expect(attempt.parentSpanId).toBe(trace.root.spanId);
      expect(attempt.attributes['patchbay.callback.outcome']).toBe('delivered');
      // The looks that found nothing around it made no trace: every root since start is real work.
      const roots = spans().filter((s) => !s.parentSpanId);
      expect(roots.filter((s) => s.name.startsWith('findOneAndUpdate'))).toEqual([]);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  }, 60_000);
});

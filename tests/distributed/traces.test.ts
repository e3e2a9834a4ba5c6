/**
 * Traces across the processes of the distributed mode (decisions §42): every service writes its
 * finished spans to one file (PATCHBAY_TRACES_TEST_FILE, the test-only exporter: an in-memory
 * exporter shared by processes), and the test follows one upload and one push send through them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RecordedSpan } from '../../packages/platform/src/tracing/file-span-exporter';
import { defaultContainer } from '../harness/default-container';
import { FakePushWorld, deviceToken } from '../support/fake-push-world';
import { tone } from '../support/media';
import { consistently, until } from '../support/poll';

const SERVER = 1;
const CLIENT = 2;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-traces-'));
const spanFile = path.join(dir, 'spans.jsonl');
let w: FakePushWorld;
beforeAll(async () => {
  w = await FakePushWorld.start('distributed', {
    sendDeadlineMs: 4000,
    attemptTimeoutMs: 2500,
    maxRetries: 1,
    retryBaseMs: 50,
    // A sweep tick a day: the threshold-worker's ticks fall on the interval's wall-clock boundaries, and a tick's
    // jobs (expiry, usage snapshots) are real work, traced; with the default 300 s one could fall in the idle test.
    env: { PATCHBAY_TRACES_TEST_FILE: spanFile, LOG_LEVEL: 'info', THRESHOLD_SWEEP_INTERVAL: '86400' },
  });
}, 120_000);
afterAll(async () => {
  await w?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

function allSpans(): RecordedSpan[] {
  if (!fs.existsSync(spanFile)) return [];
  return fs
    .readFileSync(spanFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordedSpan);
}

/** The one trace holding a span that `pick` selects, once `complete` says all its spans arrived. */
async function traceWith(pick: (s: RecordedSpan) => boolean, complete: (t: RecordedSpan[]) => boolean) {
  return until('the trace to be complete', 30000, () => {
    const spans = allSpans();
    const traceIds = new Set(spans.filter(pick).map((s) => s.traceId));
    if (traceIds.size > 1) throw new Error(`more than one trace matches: ${[...traceIds].join(', ')}`);
    const t = spans.filter((s) => traceIds.has(s.traceId));
    return traceIds.size === 1 && complete(t) ? t : undefined;
  });
}

/** Checks the links of one trace: one root (the gateway's HTTP span), every other span's parent in it. */
function checkTree(t: RecordedSpan[]) {
  const byId = new Map(t.map((s) => [s.spanId, s]));
  const roots = t.filter((s) => !s.parentSpanId);
  expect(roots).toHaveLength(1);
  expect(roots[0]).toMatchObject({ service: 'patchbay-gateway', kind: SERVER });
  for (const s of t) if (s.parentSpanId) expect(byId.has(s.parentSpanId)).toBe(true);
  const one = (name: string, service?: string) => {
    const found = t.filter((s) => s.name === name && (!service || s.service === service));
    if (found.length !== 1)
      throw new Error(
        `expected one ${name} in the trace, got ${found.length}: ${t.map((s) => `${s.service}:${s.name}`).join(', ')}`,
      );
    return found[0];
  };
  const parent = (s: RecordedSpan) => byId.get(s.parentSpanId ?? '');
  const ancestors = (s: RecordedSpan) => {
    const out: RecordedSpan[] = [];
    for (let p = parent(s); p; p = parent(p)) out.push(p);
    return out;
  };
  return { root: roots[0], one, parent, ancestors };
}

/** The JSON log lines the instance printed (each service's, behind the launcher's prefix). */
function logLines(): Array<Record<string, unknown>> {
  return w.pb
    .output()
    .split('\n')
    .map((l) => l.slice(l.indexOf('{')))
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

test('each process says once, as it starts, that tracing is on and where its spans go (decisions §52)', () => {
  const said = logLines()
    .map((l) => String(l.msg ?? ''))
    .filter((m) => m.startsWith('tracing on: '));
  const services = said.map((m) => /^tracing on: service ([\w-]+), spans exported to the test file (\S+);/.exec(m));
  expect(services.every((m) => m?.[2] === spanFile)).toBe(true);
  const names = services.map((m) => m![1]);
  expect(new Set(names).size).toBe(names.length);
  for (const svc of ['gateway', 'identity', 'storage', 'endpoint', 'transcoder', 'push', 'file-server'])
    expect(names).toContain(`patchbay-${svc}`);
});

test('idle, no process makes a trace: polls and timers look quietly (decisions §52)', async () => {
  // What start-up itself traced has been written: no span marks the last of them, so a fixed allowance.
  await new Promise((r) => setTimeout(r, 500));
  const before = new Set(allSpans().map((s) => s.spanId));
  const made = () => allSpans().filter((s) => !before.has(s.spanId));
  // Six polls of the Voicemail outbox: the idle period is the assertion; a span made in it fails at once.
  await consistently(() => expect(made().map((s) => `${s.service} ${s.name}`)).toEqual([]), 3000, 250);
});

test(
  'one upload with desired_format: one trace, gateway → storage → ' +
    'transcoder → ffmpeg, each span beneath the one that caused it',
  async () => {
    const auth = ['Authorization', `Bearer ${w.pb.token}`] as const;
    const containerSid = await defaultContainer(w.pb);
    const up = await request(w.pb.origin)
      .post(`/core/v2/storage/files?container_sid=${containerSid}&name=traced.wav&type=audio&desired_format=mp3`)
      .set(...auth)
      .set('Content-Type', 'application/octet-stream')
      .send(tone('wav', 1));
    expect(up.status).toBe(201);
    await until('the transcoding to finish', 60000, async () => {
      const res = await request(w.pb.origin)
        .get(`/core/v2/storage/files/${up.body.file_sid}`)
        .set(...auth);
      return res.body.content_transcoding_progress === 100 ? true : undefined;
    });
    const t = await traceWith(
      (s) => s.service === 'patchbay-transcoder' && s.name === 'ffmpeg',
      (spans) =>
        spans.some((s) => s.service === 'patchbay-storage' && s.name.startsWith('process evt.file.transcoding')),
    );
    const { root, one, parent, ancestors } = checkTree(t);
    for (const service of ['patchbay-gateway', 'patchbay-storage', 'patchbay-transcoder'])
      expect(t.some((s) => s.service === service)).toBe(true);
    // The gateway asks storage to record the upload; storage enqueues the job; the transcoder runs ffmpeg on it.
    const served = t.filter(
      (s) => s.service === 'patchbay-storage' && s.kind === SERVER && s.name.startsWith('serve '),
    );
    expect(served.length).toBeGreaterThan(0);
    for (const s of served) {
      expect(parent(s)).toMatchObject({
        service: 'patchbay-gateway',
        kind: CLIENT,
        name: s.name.replace('serve ', 'request '),
      });
      expect(ancestors(s)).toContain(root);
    }
    const job = one('process job.transcoder.upload', 'patchbay-transcoder');
    expect(parent(job)).toMatchObject({ service: 'patchbay-storage', name: 'publish job.transcoder.upload' });
    expect(ancestors(job).some((s) => s.service === 'patchbay-storage' && s.kind === SERVER)).toBe(true);
    const ffmpeg = t.filter((s) => s.name === 'ffmpeg');
    for (const f of ffmpeg) expect(ancestors(f)).toContain(job);
    // Store calls are spans of their own, beneath the handler that made them.
    expect(t.some((s) => s.service === 'patchbay-storage' && s.name.startsWith('insertOne '))).toBe(true);
    expect(t.some((s) => s.name === 'blob put')).toBe(true);
    // The log lines of the request carry its trace_id.
    const gatewayLine = await until('the gateway’s request log line', 10000, () =>
      logLines().find((l) => l.msg === 'request' && l.method === 'POST' && l.route === '/core/v2/storage/files'),
    );
    expect(gatewayLine.trace_id).toBe(root.traceId);
  },
);

test('one push send: one trace, gateway → push → the FCM sender', async () => {
  const p = await w.newPartner();
  const sa = w.fcmAccount('traced');
  const app = await w.newApp(p, { name: 'traced', google_credentials: sa.base64 });
  const device = await w.newDevice(p, app, 'android', deviceToken('fcm'));
  const res = await w.send(p, { recipients: [device], title: 'traced' });
  expect(res.body).toMatchObject({ success: 1 });
  const t = await traceWith(
    (s) => s.name === 'push send fcm',
    (spans) => spans.some((s) => s.service === 'patchbay-gateway' && !s.parentSpanId),
  );
  const { root, one, parent } = checkTree(t);
  const sender = one('push send fcm', 'patchbay-push');
  expect(sender.kind).toBe(CLIENT);
  expect(sender.attributes['patchbay.push.devices']).toBe(1);
  const handler = parent(sender)!;
  expect(handler).toMatchObject({ service: 'patchbay-push', kind: SERVER, name: 'serve svc.push.notifications.send' });
  const call = parent(handler)!;
  expect(call).toMatchObject({
    service: 'patchbay-gateway',
    kind: CLIENT,
    name: 'request svc.push.notifications.send',
  });
  expect(call.traceId).toBe(root.traceId);
  // The push service's own log line of that send carries the trace.
  const sent = await until('the push service’s log line', 10000, () =>
    logLines().find((l) => l.msg === 'push sent' && l.application_sid === app),
  );
  expect(sent).toMatchObject({ trace_id: root.traceId, span_id: sender.spanId });
});

/** Uploads `body` into the first container, published by SID; its file_sid. */
async function publishedUpload(name: string, body: Buffer): Promise<string> {
  const auth = ['Authorization', `Bearer ${w.pb.token}`] as const;
  const containerSid = (
    await request(w.pb.origin)
      .get('/core/v2/storage/containers')
      .set(...auth)
  ).body.items[0].container_sid as string;
  const up = await request(w.pb.origin)
    .post(`/core/v2/storage/files?container_sid=${containerSid}&name=${name}&publish=file_sid`)
    .set(...auth)
    .set('Content-Type', 'application/octet-stream')
    .send(body);
  expect(up.status).toBe(201);
  return up.body.file_sid as string;
}

test(
  'a public download: the file server’s HTTP span, with its lookup in ' + 'storage and the blob read beneath it',
  async () => {
    const fileSid = await publishedUpload('public.bin', Buffer.alloc(4096, 7));
    const got = await request(w.pb.storageUrl).get(`/f/${fileSid}`);
    expect(got.status).toBe(200);
    const t = await traceWith(
      (s) => s.service === 'patchbay-file-server' && s.kind === SERVER && !s.parentSpanId,
      (spans) => spans.some((s) => s.service === 'patchbay-file-server' && s.name.startsWith('blob ')),
    );
    const byId = new Map(t.map((s) => [s.spanId, s]));
    const root = t.find((s) => !s.parentSpanId)!;
    expect(root).toMatchObject({ service: 'patchbay-file-server', kind: SERVER });
    for (const s of t) if (s !== root) expect(byId.has(s.parentSpanId!)).toBe(true);
    const lookup = t.find((s) => s.service === 'patchbay-storage' && s.kind === SERVER)!;
    expect(byId.get(lookup.parentSpanId!)).toMatchObject({ service: 'patchbay-file-server', kind: CLIENT });
  },
);

test('a range with the caller’s traceparent: one file-server span (the lean one) beneath the caller, 206', async () => {
  const fileSid = await publishedUpload('ranged.bin', Buffer.alloc(200_000, 9));
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const caller = 'b7ad6b7169203331';
  const got = await request(w.pb.storageUrl)
    .get(`/f/${fileSid}`)
    .set('Range', 'bytes=0-65535')
    .set('traceparent', `00-${traceId}-${caller}-01`);
  expect(got.status).toBe(206);
  const served = (t: RecordedSpan[]) => t.filter((s) => s.service === 'patchbay-file-server' && s.kind === SERVER);
  await traceWith(
    (s) => s.traceId === traceId,
    (t) => served(t).length > 0,
  );
  // A second server span (the instrumentation's) would be out within this.
  await consistently(() => expect(served(allSpans().filter((s) => s.traceId === traceId))).toHaveLength(1), 500, 100);
  const t = allSpans().filter((s) => s.traceId === traceId);
  expect(served(t)[0]).toMatchObject({
    name: 'GET /f/:id',
    parentSpanId: caller,
    attributes: { 'http.route': '/f/:id', 'http.response.status_code': 206 },
  });
});

test('a range whose caller chose not to sample (flags 00): answered, and no service records a span of it', async () => {
  const fileSid = await publishedUpload('unsampled.bin', Buffer.alloc(200_000, 5));
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const got = await request(w.pb.storageUrl)
    .get(`/f/${fileSid}`)
    .set('Range', 'bytes=65536-131071')
    .set('traceparent', `00-${traceId}-00f067aa0ba902b7-00`);
  expect(got.status).toBe(206);
  expect(got.body).toEqual(Buffer.alloc(65536, 5));
  // A sampled request made after it is exported; by then this one's spans would be out too.
  const marker = '0af7651916cd43dd8448eb211c8031aa';
  const after = await request(w.pb.storageUrl)
    .get(`/f/${fileSid}`)
    .set('Range', 'bytes=0-1')
    .set('traceparent', `00-${marker}-b7ad6b7169203331-01`);
  expect(after.status).toBe(206);
  await traceWith(
    (s) => s.traceId === marker,
    (t) => t.some((s) => s.service === 'patchbay-file-server'),
  );
  expect(allSpans().filter((s) => s.traceId === traceId)).toEqual([]);
});

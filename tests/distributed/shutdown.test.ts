import crypto from 'node:crypto';
import http from 'node:http';
import request from 'supertest';
import { reservePorts } from '../harness/free-port';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import { exitOf, serviceProcess, serviceProcesses } from './service-process';
import { until } from '../support/poll';
import type { ApiJson } from '../support/api-json';

/** A counter or gauge's total over its label sets, read from a Prometheus text page. */
function metric(text: string, name: string, labels = ''): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(name) && l.includes(labels))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

/** Polls `check` every 100 ms until it returns a value, or fails after `timeoutMs`. */
/** Services (by logger name) that wrote a JSON line carrying `requestId`, with the subjects they handled. */
function linesWith(output: string, requestId: string): Array<{ name: string; subject?: string; msg: string }> {
  return output
    .split('\n')
    .map((l) => l.replace(/^\[[\w-]+\] /, ''))
    .filter((l) => l.startsWith('{') && l.includes(requestId))
    .map((l) => JSON.parse(l) as { name: string; subject?: string; msg: string; requestId?: string })
    .filter((l) => l.requestId === requestId);
}

describe('distributed set under operations: request IDs in every log, SIGTERM loses nothing', () => {
  let inst: PatchbayInstance;
  let opsBase: number;
  let storagePort: number;
  let containerSid = '';
  const auth = () => ['Authorization', `Bearer ${inst.token}`] as const;
  const upload = (name: string, body: Buffer, extra = '', requestId?: string) => {
    const r = request(inst.origin)
      .post(`/core/v2/storage/files?container_sid=${containerSid}&name=${name}${extra}`)
      .set(...auth())
      .set('Content-Type', 'application/octet-stream');
    return (requestId ? r.set('X-Request-Id', requestId) : r).send(body);
  };
  const file = async (sid: string) =>
    (
      await request(inst.origin)
        .get(`/core/v2/storage/files/${sid}`)
        .set(...auth())
    ).body as ApiJson;
  const transcoders = () =>
    serviceProcesses(inst.pid, 'services/transcoder/src/main.ts').map((p) => ({ opsPort: Number(p.env.OPS_PORT) }));

  beforeAll(async () => {
    opsBase = await reservePorts(16); // one per process of the set
    inst = await startPatchbay('distributed', {
      FILE_SERVER_REPLICAS: '2',
      TRANSCODER_REPLICAS: '2',
      TRANSCODER_CONCURRENCY: '1',
      OPS_PORT_BASE: String(opsBase),
      LOG_LEVEL: 'info',
    });
    storagePort = Number(new URL(inst.storageUrl).port);
    containerSid = await defaultContainer(inst);
  }, 120000);
  afterAll(async () => {
    await inst?.stop();
  });

  test('an X-Request-Id reaches the logs of every service the call touches, through requests and jobs', async () => {
    const rid = `trace-${crypto.randomUUID()}`;
    const res = await upload('trace.wav', tone('wav', 1), '&type=audio&desired_format=mp3', rid);
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe(rid);
    await until('the job to finish', 30000, async () =>
      (await file(res.body.file_sid)).content_transcoding_progress === 100 ? true : undefined,
    );
    // Storage hears about the finished job from the transcoder's event, under the ID the upload had.
    const seen = await until('storage to log the job result with the request ID', 10000, async () => {
      const lines = linesWith(inst.output(), rid);
      return lines.some((l) => l.name === 'storage' && l.msg === 'file transcoded') ? lines : undefined;
    });
    // gateway (the HTTP request), storage (prepare, commit, and the job's result), transcoder
    // (the probe storage asks for before the commit, and the job).
    expect([...new Set(seen.map((l) => l.name))].sort()).toEqual(['gateway', 'storage', 'transcoder']);
    expect(seen.filter((l) => l.name === 'storage').map((l) => l.subject)).toEqual(
      expect.arrayContaining(['svc.storage.files.prepare', 'svc.storage.files.commit']),
    );

    // A public download with a transcode: file-server → storage (resolve) and → transcoder.
    const rid2 = `trace-${crypto.randomUUID()}`;
    const dl = await request(`http://127.0.0.1:${storagePort}`)
      .get(`/f/${res.body.file_sid}?f=ogg`)
      .set('X-Request-Id', rid2);
    expect(dl.status).toBe(200);
    const seen2 = await until('storage and transcoder lines', 10000, async () => {
      const names = new Set(linesWith(inst.output(), rid2).map((l) => l.name));
      return names.has('storage') && names.has('transcoder') ? names : undefined;
    });
    expect(seen2.size).toBeGreaterThanOrEqual(2);

    // Each process's bus metrics, per subject, on its ops port.
    // The gateway's /metrics is on its operations port only, never on the public one.
    const [gateway] = serviceProcesses(inst.pid, 'services/gateway/src/main.ts');
    expect((await fetch(`${inst.origin}/metrics`)).status).toBe(404);
    const gatewayMetrics = await (await fetch(`http://127.0.0.1:${gateway.env.OPS_PORT}/metrics`)).text();
    expect(
      metric(gatewayMetrics, 'bus_requests_total', 'subject="svc.storage.files.commit",outcome="201"'),
    ).toBeGreaterThanOrEqual(1);
    expect(gatewayMetrics).toMatch(/bus_request_duration_seconds_bucket\{[^}]*subject="svc.storage.files.prepare"/);
  }, 60000);

  test('a transcoder stopped with SIGTERM in the middle of an upload-time job: the job still completes', async () => {
    const res = await upload('long.wav', tone('wav', 240), '&type=audio&desired_format=mp4');
    expect(res.status).toBe(201);
    // The replica running it (one ffmpeg per replica here).
    const busy = await until('a transcoder to start the job', 30000, async () => {
      for (const t of transcoders()) {
        const text = await (await fetch(`http://127.0.0.1:${t.opsPort}/metrics`)).text();
        if (metric(text, 'transcoder_active') > 0) return t;
      }
      return undefined;
    });
    const before = await file(res.body.file_sid);
    expect(before.content_transcoding_progress).toBeLessThan(100);
    const pid = serviceProcess(inst.pid, 'services/transcoder/src/main.ts', { OPS_PORT: String(busy.opsPort) });
    process.kill(pid, 'SIGTERM');
    // It stops taking work at once but exits only once its job is settled.
    await exitOf(pid, 40000);
    const done = await until('the job to complete', 90000, async () => {
      const f = await file(res.body.file_sid);
      return f.content_transcoding_progress === 100 ? f : undefined;
    });
    expect(done).toMatchObject({ content_format: 'mp4', mime_type: 'video/mp4' });
    expect(done.content_duration).toBeGreaterThan(235);
    const data = await request(inst.origin)
      .get(`/core/v2/storage/files/${res.body.file_sid}/data`)
      .set(...auth())
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect((data.body as Buffer).subarray(4, 8).toString()).toBe('ftyp');
  }, 150000);

  test(
    'a file server stopped with SIGTERM in the middle of a slow download: ' + 'the download completes intact',
    async () => {
      const bytes = crypto.randomBytes(24 * 1024 * 1024);
      const res = await upload('big.bin', bytes);
      expect(res.status).toBe(201);
      const pid = serviceProcess(inst.pid, 'services/file-server/src/main.ts', { STORAGE_PORT: String(storagePort) });
      const hash = crypto.createHash('sha256');
      let received = 0;
      let signalled = false;
      const finished = new Promise<number>((resolve, reject) => {
        http
          .get(
            `http://127.0.0.1:${storagePort}/f/${res.body.file_sid}`,
            { headers: { connection: 'close' }, agent: false },
            (r) => {
              if (r.statusCode !== 200) reject(new Error(`status ${r.statusCode}`));
              // A slow client: about 6 MiB/s, pausing between chunks.
              r.on('data', (chunk: Buffer) => {
                hash.update(chunk);
                received += chunk.length;
                if (!signalled && received > 2 * 1024 * 1024) {
                  signalled = true;
                  process.kill(pid, 'SIGTERM');
                }
                r.pause();
                setTimeout(() => r.resume(), Math.ceil(chunk.length / (6 * 1024)));
              });
              r.on('end', () => resolve(received));
              r.on('error', reject);
            },
          )
          .on('error', reject);
      });
      // Once signalled, the replica takes no new connections (readiness is gone) while it finishes.
      await until('the signal', 20000, async () => (signalled ? true : undefined));
      const health = await fetch(`http://127.0.0.1:${storagePort}/health`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect([503, 'refused']).toContain(health);
      expect(await finished).toBe(bytes.length);
      expect(hash.digest('hex')).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
      await exitOf(pid, 30000);
      // The other replica still serves.
      const other = await request(`http://127.0.0.1:${storagePort + 1}`).head(`/f/${res.body.file_sid}`);
      expect(other.status).toBe(200);
    },
    120000,
  );
});

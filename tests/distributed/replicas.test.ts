import request from 'supertest';
import { reservePorts } from '../harness/free-port';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import { until } from '../support/poll';

/** A counter's total over its label sets, read from a Prometheus text page. */
function metric(text: string, name: string, labels = ''): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(name) && l.includes(labels))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

describe('two file-servers and two transcoders over NATS share the work', () => {
  let inst: PatchbayInstance;
  let opsBase: number;
  afterAll(async () => {
    await inst?.stop();
  });

  test('every replica serves; both transcoders take requests and upload jobs', async () => {
    opsBase = await reservePorts(16); // one per process of the set
    inst = await startPatchbay('distributed', {
      FILE_SERVER_REPLICAS: '2',
      TRANSCODER_REPLICAS: '2',
      TRANSCODER_CONCURRENCY: '1',
      OPS_PORT_BASE: String(opsBase),
    });
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const containerSid: string = await until('the default container', 10_000, async () => {
      const listed = await request(inst.origin)
        .get('/core/v2/storage/containers')
        .set(...auth);
      return listed.body.items?.[0]?.container_sid;
    });
    const upload = (name: string, body: Buffer, extra = '') =>
      request(inst.origin)
        .post(`/core/v2/storage/files?container_sid=${containerSid}&name=${name}${extra}`)
        .set(...auth)
        .set('Content-Type', 'application/octet-stream')
        .send(body);
    const f = (await upload('a.wav', tone('wav', 1))).body;
    const storagePort = Number(new URL(inst.storageUrl).port);

    // Both file-servers serve the same published file.
    for (const port of [storagePort, storagePort + 1]) {
      const res = await request(`http://127.0.0.1:${port}`).get(`/f/${f.file_sid}`);
      expect(res.status).toBe(200);
    }

    // Download-time transcodes (requests, queue group) and upload-time jobs (work queue).
    const targets = ['mp3', 'ogg', 'flac', 'al', 'ul', 'g722', 'mp4', 'alaw', 'ulaw'];
    const downloads = await Promise.all(
      targets.map((t, i) => request(`http://127.0.0.1:${storagePort + (i % 2)}`).get(`/f/${f.file_sid}?f=${t}`)),
    );
    expect(downloads.map((r) => r.status)).toEqual(targets.map(() => 200));
    const jobs = await Promise.all(
      ['mp3', 'ogg', 'flac', 'g722', 'ul', 'mp4'].map((t, i) =>
        upload(`j${i}.wav`, tone('wav', 1), `&type=audio&desired_format=${t}`),
      ),
    );
    expect(jobs.map((r) => r.status)).toEqual(jobs.map(() => 201));
    const finished = async (fileSid: string) =>
      (
        await request(inst.origin)
          .get(`/core/v2/storage/files/${fileSid}`)
          .set(...auth)
      ).body.content_transcoding_progress === 100;
    const left = new Set(jobs.map((job) => String(job.body.file_sid)));
    await until(
      'every transcoding job to finish',
      60000,
      async () => {
        for (const sid of [...left]) if (await finished(sid)) left.delete(sid);
        return left.size === 0 ? true : undefined;
      },
      { everyMs: 200, detail: () => `not finished: ${[...left].join(', ')}` },
    );

    // Process order of the launcher: identity, records, transcoder-1, transcoder-2, storage, endpoint, push,
    // file-server-1, file-server-2, gateway.
    const page = (i: number) =>
      request(`http://127.0.0.1:${opsBase + i}`)
        .get('/metrics')
        .then((r) => r.text);
    const [t1, t2] = [await page(2), await page(3)];
    for (const text of [t1, t2]) {
      expect(
        metric(text, 'transcoder_runs_total', 'kind="download",result="ok"') +
          metric(text, 'transcoder_runs_total', 'kind="upload",result="ok"'),
      ).toBeGreaterThan(0);
    }
    expect(
      metric(t1, 'transcoder_runs_total', 'kind="upload"') + metric(t2, 'transcoder_runs_total', 'kind="upload"'),
    ).toBe(6);
    const [fs1, fs2] = [await page(7), await page(8)];
    expect(metric(fs1, 'file_server_responses_total', 'status="200"')).toBeGreaterThan(0);
    expect(metric(fs2, 'file_server_responses_total', 'status="200"')).toBeGreaterThan(0);
  }, 180000);
});

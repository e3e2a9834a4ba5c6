/**
 * Transcoding capacity (docs/security.md, "Transcoding capacity"), on an instance of its own in
 * each run mode (distributed: two file-servers and two transcoders): identical download-time
 * requests run ffmpeg once, the download-time queue is bounded (503 with Retry-After beyond it),
 * the cache of transcoded copies stays within TRANSCODE_CACHE_BYTES, and a flood of anonymous `?f=`
 * requests does not hold back a partner's upload-time transcode. ffmpeg is the system's, through a
 * wrapper that logs each run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { instanceBlobs } from '../harness/stores';
import { noise, tone } from '../support/media';
import { until } from '../support/poll';

const BUDGET = 150_000;
const QUEUE = 4;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-capacity-'));
const runLog = path.join(tmp, 'ffmpeg-runs.log');
let inst: PatchbayInstance;
let containerSid = '';
const auth = () => ['Authorization', `Bearer ${inst.token}`] as const;
/** The file-server replicas: requests go to each in turn. */
const fileServers = () =>
  mode() === 'distributed'
    ? [inst.storageUrl, inst.storageUrl.replace(/:(\d+)$/, (_m, p: string) => `:${Number(p) + 1}`)]
    : [inst.storageUrl];
const pub = (i: number) => request(fileServers()[i % fileServers().length]);
/** ffmpeg runs that transcoded something (not the start-up checks of the binary), from the wrapper's log. */
const ffmpegRuns = () =>
  fs.existsSync(runLog)
    ? fs
        .readFileSync(runLog, 'utf8')
        .split('\n')
        .filter((l) => l.includes(' -i '))
    : [];

async function upload(name: string, body: Buffer, extra = ''): Promise<string> {
  const res = await request(inst.origin)
    .post(`/core/v2/storage/files?container_sid=${containerSid}&name=${name}&publish=file_sid${extra}`)
    .set(...auth())
    .set('Content-Type', 'application/octet-stream')
    .send(body);
  expect(res.status).toBe(201);
  return res.body.file_sid as string;
}

const bytes = (r: request.Test) =>
  r.buffer(true).parse((res, cb) => {
    const c: Buffer[] = [];
    res.on('data', (b: Buffer) => c.push(b));
    res.on('end', () => cb(null, Buffer.concat(c)));
  });

beforeAll(async () => {
  const ffmpeg = path.join(tmp, 'ffmpeg');
  fs.writeFileSync(ffmpeg, `#!/bin/sh\necho "$$ $*" >> '${runLog}'\nexec /usr/bin/ffmpeg "$@"\n`, { mode: 0o755 });
  inst = await startPatchbay(mode(), {
    FFMPEG_PATH: ffmpeg,
    TRANSCODER_CONCURRENCY: '1',
    TRANSCODER_DOWNLOAD_CONCURRENCY: '1',
    TRANSCODER_DOWNLOAD_QUEUE: String(QUEUE),
    TRANSCODE_CACHE_BYTES: String(BUDGET),
    FILE_SERVER_REPLICAS: '2',
    TRANSCODER_REPLICAS: '2',
  });
  containerSid = await defaultContainer(inst);
}, 180_000);

afterAll(async () => {
  await inst?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('concurrent identical ?f=mp3 requests (every replica) run ffmpeg once and all get the same copy', async () => {
  const sid = await upload('same.wav', noise('wav', { seconds: 60, sampleRate: 16000, channels: 1 }));
  const before = ffmpegRuns().length;
  const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => bytes(pub(i).get(`/f/${sid}?f=mp3`))));
  expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  const first = replies[0].body as Buffer;
  expect(first.length).toBeGreaterThan(1000);
  for (const r of replies) expect((r.body as Buffer).equals(first)).toBe(true);
  expect(ffmpegRuns().slice(before)).toHaveLength(1);
  // From the cache now: no run at all, ranges allowed.
  const again = await bytes(pub(1).get(`/f/${sid}?f=mp3`).set('Range', 'bytes=0-99'));
  expect(again.status).toBe(206);
  expect(ffmpegRuns().slice(before)).toHaveLength(1);
}, 120_000);

test('beyond the download-time queue: 503 with Retry-After, at once; the rest are served', async () => {
  const sid = await upload('queue.wav', noise('wav', { seconds: 60, sampleRate: 16000, channels: 1 }));
  const asks = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112].flatMap((br) => [`f=mp3&br=${br}`, `f=ogg&br=${br}`]);
  const replies = await Promise.all(asks.map((q, i) => pub(i).get(`/f/${sid}?${q}`)));
  const refused = replies.filter((r) => r.status === 503);
  const served = replies.filter((r) => r.status === 200);
  expect(refused.length + served.length).toBe(asks.length);
  expect(refused.length).toBeGreaterThan(0);
  expect(served.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.body).toMatchObject({ message: expect.stringMatching(/try again/) });
  }
  // A refused one is served later.
  const again = asks[replies.findIndex((r) => r.status === 503)];
  expect((await pub(0).get(`/f/${sid}?${again}`)).status).toBe(200);
}, 120_000);

test(
  'the cache of transcoded copies is brought within ' + 'TRANSCODE_CACHE_BYTES; an evicted copy is made again',
  async () => {
    const sid = await upload('cache.wav', tone('wav', 10));
    const asks = ['f=mp3', 'f=ogg', 'f=flac', 'f=al', 'f=ul', 'f=g722', 'f=mp3&br=16', 'f=ogg&br=16', 'f=mp4'];
    const sizes = new Map<string, number>();
    for (const q of asks) {
      const res = await bytes(pub(0).get(`/f/${sid}?${q}`));
      expect(res.status).toBe(200);
      // Sent as it was made (chunked: decisions §53), or made whole first (its length said).
      if (res.headers['transfer-encoding'] !== 'chunked')
        expect((res.body as Buffer).length).toBe(Number(res.headers['content-length']));
      sizes.set(q, (res.body as Buffer).length);
    }
    const made = [...sizes.values()].reduce((a, b) => a + b, 0);
    expect(made).toBeGreaterThan(BUDGET); // what an unbounded cache would keep
    const blobs = await instanceBlobs(inst);
    try {
      const cached = async () => {
        let total = 0;
        for (const key of await blobs.keys('cache/'))
          total += (await blobs.store.stat(key).catch(() => ({ size: 0 }))).size;
        return total;
      };
      // Copies just read are kept a few seconds (a download may still be reading them), then evicted.
      await until(
        'the cache to be within its budget',
        60_000,
        async () => ((await cached()) <= BUDGET ? true : undefined),
        {
          everyMs: 500,
        },
      );
      expect(await cached()).toBeLessThanOrEqual(BUDGET);
      const first = await bytes(pub(0).get(`/f/${sid}?${asks[0]}`));
      expect(first.status).toBe(200);
      expect((first.body as Buffer).length).toBe(sizes.get(asks[0]));
    } finally {
      await blobs.close();
    }
  },
  120_000,
);

test("a partner's upload-time transcode is not held back by a flood of anonymous ?f= requests", async () => {
  const source = noise('wav', { seconds: 120, sampleRate: 16000, channels: 1 });
  const partnerB = noise('wav', { seconds: 240, sampleRate: 16000, channels: 1 });
  const flooded = await upload('flood.wav', source);
  /** Upload B's file to be transcoded at upload time; the seconds until its transcoding is done. */
  const timeB = async (n: number): Promise<number> => {
    const started = Date.now();
    const sid = await upload(`b${n}.wav`, partnerB, '&type=audio&desired_format=mp4');
    await until(
      `B's transcoding ${n}`,
      150_000,
      async () => {
        const f = await request(inst.origin)
          .get(`/core/v2/storage/files/${sid}`)
          .set(...auth());
        return f.body.content_transcoding_progress === 100 ? true : undefined;
      },
      { everyMs: 100 },
    );
    return (Date.now() - started) / 1000;
  };
  const alone = await timeB(1);
  const asks = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224].flatMap((br) =>
    ['mp3', 'ogg', 'mp4'].map((f) => `f=${f}&br=${br}`),
  );
  asks.push('f=flac', 'f=al', 'f=ul', 'f=g722', 'f=alaw', 'f=ulaw');
  expect(asks.length).toBeGreaterThanOrEqual(48);
  const flood = Promise.all(asks.map((q, i) => pub(i).get(`/f/${flooded}?${q}`)));
  await new Promise((r) => setTimeout(r, 300)); // the flood is queued first
  const underFlood = await timeB(2);
  const replies = await flood;
  for (const r of replies) {
    expect([200, 503]).toContain(r.status);
    if (r.status === 503) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }
  // Against the same machine's load: its time alone measured again once the flood is over.
  const aloneAfter = await timeB(3);
  expect(underFlood).toBeLessThanOrEqual(3 * Math.max(alone, aloneAfter));
}, 400_000);

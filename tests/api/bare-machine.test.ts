/**
 * The README's start command on a machine without Debian's ffmpeg (decisions §23): Patchbay is started
 * with a PATH that has no ffmpeg or ffprobe and FFMPEG_PATH unset. With the optional npm packages
 * it transcodes with their static builds (`?f=mp3` works, the log names the binary); with those
 * turned off too, everything but transcoding works, and a transcoding request — at download
 * (`?f=`) or at upload (`desired_format`) — is a 503 naming what is missing, with nothing stored.
 * Runs in both modes, each case on an instance of its own.
 */
import request from 'supertest';
import { expectErrorBody, mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { pathWithoutFfmpeg } from '../support/bare-path';
import { binary, durationOf } from '../support/audio-probe';
import { tone } from '../support/media';
import { until } from '../support/poll';

const bare = pathWithoutFfmpeg();
afterAll(() => bare.remove());
const NO_FFMPEG = { PATH: bare.dir, FFMPEG_PATH: '', FFPROBE_PATH: '', LOG_LEVEL: 'info' };

/** Whether /health turns 200: it does once the gateway has seen identity ready (polled), a moment after the start. */
const healthy = (inst: PatchbayInstance) =>
  until('/health to answer 200', 10_000, async () =>
    (await request(inst.origin).get('/health')).status === 200 ? true : undefined,
  );

function upload(inst: PatchbayInstance, query: string, body: Buffer) {
  return request(inst.origin)
    .post(`/core/v2/storage/files?${query}`)
    .set('Authorization', `Bearer ${inst.token}`)
    .set('Content-Type', 'application/octet-stream')
    .send(body);
}

describe("no system ffmpeg: the npm packages' static builds", () => {
  let inst: PatchbayInstance;
  beforeAll(async () => {
    inst = await startPatchbay(mode(), NO_FFMPEG);
  }, 120_000);
  afterAll(async () => {
    await inst?.stop();
  });

  test('/health answers, the log names the binary used, and ?f=mp3 transcodes', async () => {
    expect(await healthy(inst)).toBe(true);
    expect(inst.startupOutput).toMatch(/"msg":"ffmpeg found"/);
    const installer = '@ffmpeg-installer/linux-x64';
    const ffmpegPath = `"path":"[^"]*node_modules/${installer}/ffmpeg"`;
    expect(inst.startupOutput).toMatch(
      new RegExp(`"ffmpeg":\\{${ffmpegPath},"version":"[^"]+","source":"${installer}"\\}`),
    );
    expect(inst.startupOutput).toMatch(
      /"ffprobe":\{"path":"[^"]*node_modules\/@ffprobe-installer\/linux-x64\/ffprobe"/,
    );
    const container = await defaultContainer(inst);
    const up = await upload(inst, `container_sid=${container}&name=tone.wav&publish=file_access_name`, tone('wav', 2));
    expect(up.status).toBe(201);
    const mp3 = await binary(request(up.body.publish_uri as string).get('?f=mp3'));
    expect(mp3.status).toBe(200);
    expect(mp3.headers['content-type']).toBe('audio/mpeg');
    expect(durationOf(mp3.body as Buffer, 'mp3')).toBeCloseTo(2, 0);
  }, 60_000);
});

describe('no ffmpeg at all', () => {
  let inst: PatchbayInstance;
  beforeAll(async () => {
    inst = await startPatchbay(mode(), { ...NO_FFMPEG, TRANSCODER_NPM_FFMPEG: 'false' });
  }, 120_000);
  afterAll(async () => {
    await inst?.stop();
  });

  test('everything else works: upload, download, the public link, other resources', async () => {
    expect(await healthy(inst)).toBe(true);
    expect(inst.startupOutput).toMatch(/transcoding is limited or unavailable/);
    const container = await defaultContainer(inst);
    const wav = tone('wav', 1);
    const up = await upload(inst, `container_sid=${container}&name=plain.wav&publish=file_access_name`, wav);
    expect(up.status).toBe(201);
    const pub = await binary(request(up.body.publish_uri as string).get(''));
    expect(pub.status).toBe(200);
    expect(Buffer.compare(pub.body as Buffer, wav)).toBe(0);
    const endpoint = await request(inst.origin)
      .post('/core/v2/endpoints')
      .set('Authorization', `Bearer ${inst.token}`)
      .send({ type: 'flexml', name: 'bare' });
    expect(endpoint.status).toBe(200);
  }, 60_000);

  test('?f=mp3 is a 503 naming the missing ffmpeg', async () => {
    const container = await defaultContainer(inst);
    const up = await upload(inst, `container_sid=${container}&name=tone.wav&publish=file_access_name`, tone('wav', 1));
    const res = await request(up.body.publish_uri as string).get('?f=mp3');
    expect(res.status).toBe(503);
    expectErrorBody(res.body);
    expect(res.body.message).toMatch(
      new RegExp(
        '^transcoding is unavailable: no working ffmpeg: FFMPEG_PATH is not set; no ffmpeg on PATH; ' +
          '@ffmpeg-installer/linux-x64 is not used',
      ),
    );
    expect(res.body.errors[0].field).toBe('f');
  }, 60_000);

  test('an upload to transcode is a 503 naming the missing piece, and nothing is stored', async () => {
    const container = await defaultContainer(inst);
    const before = (
      await request(inst.origin)
        .get(`/core/v2/storage/containers/${container}`)
        .set('Authorization', `Bearer ${inst.token}`)
    ).body.total_files as number;
    const res = await upload(
      inst,
      `container_sid=${container}&name=t.wav&type=audio&desired_format=mp3`,
      tone('wav', 1),
    );
    expect(res.status).toBe(503);
    expectErrorBody(res.body);
    // ffprobe is missing too, and it is the first thing an upload to transcode needs.
    expect(res.body.message).toMatch(/^transcoding is unavailable: no working (ffmpeg|ffprobe): /);
    expect(res.body.errors[0].field).toBe('desired_format');
    const after = (
      await request(inst.origin)
        .get(`/core/v2/storage/containers/${container}`)
        .set('Authorization', `Bearer ${inst.token}`)
    ).body.total_files as number;
    expect(after).toBe(before);
  }, 60_000);
});

/**
 * A transcoder that dies in the middle of a download-time transcode (docs/security.md, "Transcoding capacity"): the
 * download is made again by the other replica, within seconds of the death — never the 120 s wait
 * for an answer that cannot come and then a 504. Two transcoder replicas over NATS; the one running
 * the ffmpeg is killed with SIGKILL (its ffmpeg dies with it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { noise } from '../support/media';
import { until } from '../support/poll';
import { ffmpegUsing } from '../support/processes';
import { durationOf } from '../support/audio-probe';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-dies-scratch-'));
let inst: PatchbayInstance;
beforeAll(async () => {
  inst = await startPatchbay('distributed', { TRANSCODER_REPLICAS: '2', TRANSCODER_SCRATCH_DIR: scratch });
}, 120_000);
afterAll(async () => {
  await inst?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('the transcoder making a download dies: the other replica makes it, the download succeeds', async () => {
  const auth = ['Authorization', `Bearer ${inst.token}`] as const;
  const containerSid = await defaultContainer(inst);
  // Ten minutes of audio to AAC: several seconds of ffmpeg, time enough to kill it in the middle.
  const up = await request(inst.origin)
    .post(`/core/v2/storage/files?container_sid=${containerSid}&name=long.wav&publish=file_sid`)
    .set(...auth)
    .set('Content-Type', 'application/octet-stream')
    .send(noise('wav', { seconds: 600, sampleRate: 16000, channels: 1 }));
  expect(up.status).toBe(201);

  const started = Date.now();
  const download = request(inst.storageUrl)
    .get(`/f/${up.body.file_sid}?f=mp4`)
    .buffer(true)
    .parse((res, cb) => {
      const c: Buffer[] = [];
      res.on('data', (b: Buffer) => c.push(b));
      res.on('end', () => cb(null, Buffer.concat(c)));
    })
    .then((r) => r);
  const [ffmpeg] = await until('ffmpeg to make the copy', 30000, () => {
    const running = ffmpegUsing(scratch).filter((p) => p.comm === 'ffmpeg');
    return running.length > 0 ? running : undefined;
  });
  process.kill(ffmpeg.ppid, 'SIGKILL'); // the transcoder's node process (ffmpeg dies with it)
  const killedAt = Date.now();

  const res = await download;
  const took = (Date.now() - killedAt) / 1000;
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('video/mp4');
  expect(Math.round(durationOf(res.body as Buffer, 'mp4'))).toBe(600);
  // The lease runs out within COPY_LEASE_MS (10 s) of the death; then a whole new run on the other replica.
  expect(took).toBeLessThan(60);
  // Made by another transcoder: one ffmpeg now, not the killed one's.
  expect(ffmpegUsing(scratch).some((p) => p.pid === ffmpeg.pid)).toBe(false);
  expect(Date.now() - started).toBeLessThan(90_000);
}, 240_000);

test('the transcoder streaming a download dies: that download is cut, the next is made', async () => {
  const auth = ['Authorization', `Bearer ${inst.token}`] as const;
  const containerSid = await defaultContainer(inst);
  const up = await request(inst.origin)
    .post(`/core/v2/storage/files?container_sid=${containerSid}&name=streamed.wav&publish=file_sid`)
    .set(...auth)
    .set('Content-Type', 'application/octet-stream')
    .send(noise('wav', { seconds: 1200, sampleRate: 16000, channels: 1 }));
  expect(up.status).toBe(201);
  const url = `${inst.storageUrl}/f/${up.body.file_sid}?f=mp3`;
  // Read as it comes: the first bytes arrive while ffmpeg runs, then its transcoder is killed.
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader(); // a 200 to a GET has a body
  await reader.read();
  const [ffmpeg] = ffmpegUsing(scratch).filter((p) => p.comm === 'ffmpeg');
  process.kill(ffmpeg.ppid, 'SIGKILL');
  const rest = async () => {
    for (;;) if ((await reader.read()).done) return 'ended';
  };
  await expect(rest()).rejects.toThrow();
  // Asked again: the killed run's claim runs out, the other replica makes the copy whole.
  const again = await request(url)
    .get('')
    .buffer(true)
    .parse((r, cb) => {
      const c: Buffer[] = [];
      r.on('data', (b: Buffer) => c.push(b));
      r.on('end', () => cb(null, Buffer.concat(c)));
    });
  expect([again.status, again.status === 200 ? '' : (again.body as Buffer).toString()]).toEqual([200, '']);
  expect(Math.round(durationOf(again.body as Buffer, 'mp3'))).toBe(1200);
}, 240_000);

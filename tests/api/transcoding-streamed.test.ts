/**
 * Download-time transcodes sent as ffmpeg makes them (decisions §53), through the file server only:
 * the first listener gets bytes before the encode ends; listeners who come meanwhile join the same
 * run (one ffmpeg, the same bytes); a download closed early stops a run that is not half done and
 * leaves no copy; the stored copy then answers with its length, ranges and the same bytes.
 */
import http from 'node:http';
import request from 'supertest';
import { mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { instanceBlobs, type InstanceBlobs } from '../harness/stores';
import { noise } from '../support/media';
import { until } from '../support/poll';
import { ffmpegUsing } from '../support/processes';
import { durationOf } from '../support/audio-probe';

interface Download {
  status: Promise<number>;
  headers: Promise<http.IncomingHttpHeaders>;
  /** Resolves with the first bytes received. */
  firstBytes: Promise<Buffer>;
  /** Resolves with every byte once the answer ended; rejects when it was cut. */
  body: Promise<Buffer>;
  close(): void;
}

/** A GET read as it arrives (supertest only hands over the whole body). */
function download(path: string): Download {
  const req = http.get(`${inst.storageUrl}${path}`);
  let close: () => void = () => req.destroy();
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  let first!: (b: Buffer) => void;
  const firstBytes = new Promise<Buffer>((resolve) => (first = resolve));
  const body = response.then(
    (res) =>
      new Promise<Buffer>((resolve, reject) => {
        close = () => res.destroy();
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => {
          if (chunks.length === 0) first(b);
          chunks.push(b);
        });
        res.once('end', () => (res.complete ? resolve(Buffer.concat(chunks)) : reject(new Error('cut'))));
        res.once('error', reject);
        res.once('aborted', () => reject(new Error('aborted')));
      }),
  );
  body.catch(() => undefined);
  return {
    status: response.then((r) => r.statusCode ?? 0),
    headers: response.then((r) => r.headers),
    firstBytes,
    body,
    close: () => close(),
  };
}

// An instance of its own: ffmpeg processes are counted, and a shared instance may still be running
// another test file's transcodes (queued ones start later).
let inst: PatchbayInstance;
let containerSid: string;
let blobs: InstanceBlobs;
beforeAll(async () => {
  inst = await startPatchbay(mode());
  blobs = await instanceBlobs(inst);
  containerSid = await defaultContainer(inst);
}, 120_000);
afterAll(async () => {
  await blobs?.close();
  await inst?.stop();
});

/** A long recording (pink noise: the encoder has work to do), uploaded and published. */
async function longRecording(name: string, minutes: number): Promise<string> {
  const res = await request(inst.origin)
    .post(`/core/v2/storage/files?container_sid=${containerSid}&name=${name}&publish=file_sid`)
    .set('Authorization', `Bearer ${inst.token}`)
    .set('Content-Type', 'application/octet-stream')
    .send(noise('wav', { seconds: minutes * 60, sampleRate: 16000, channels: 1 }));
  expect(res.status).toBe(201);
  return res.body.file_sid as string;
}

const ffmpegs = () => ffmpegUsing(inst.scratchDir).filter((proc) => proc.comm === 'ffmpeg');

test('listeners who come while a copy is made join its run: one ffmpeg, the same bytes for all', async () => {
  const sid = await longRecording('joined.wav', 10);
  const seen = new Set<number>();
  const watch = setInterval(() => ffmpegs().forEach((proc) => seen.add(proc.pid)), 20);
  try {
    const first = download(`/f/${sid}?f=mp3`);
    expect(await first.status).toBe(200);
    await first.firstBytes; // the run is going
    const more = [1, 2, 3].map(() => download(`/f/${sid}?f=mp3`));
    const bodies = await Promise.all([first, ...more].map((d) => d.body));
    for (const d of more) {
      expect(await d.status).toBe(200);
      // Joined while it was made (a listener that waited for the stored copy would be told its length).
      expect((await d.headers)['content-length']).toBeUndefined();
    }
    for (const b of bodies.slice(1)) expect(Buffer.compare(b, bodies[0])).toBe(0);
    expect(Math.round(durationOf(bodies[0], 'mp3'))).toBe(600);
    expect((await first.headers)['content-length']).toBeUndefined();
    // Stored once complete: the same bytes, with their length and ranges.
    const stored = download(`/f/${sid}?f=mp3`);
    const again = await stored.body;
    expect((await stored.headers)['content-length']).toBe(String(bodies[0].length));
    expect(Buffer.compare(again, bodies[0])).toBe(0);
  } finally {
    clearInterval(watch);
  }
  expect(seen.size).toBe(1);
}, 120_000);

test('a download closed early stops a run that is not half done: no ffmpeg left, no copy stored', async () => {
  const sid = await longRecording('left.wav', 20);
  const d = download(`/f/${sid}?f=ogg`);
  expect(await d.status).toBe(200);
  await d.firstBytes;
  d.close();
  await until('the run to stop', 30_000, () => (ffmpegs().length === 0 ? true : undefined));
  // The run is gone: its claim given back, nothing under the copy's key, and a new listener makes it again.
  expect(await blobs.keys(`cache/${sid}/`)).toEqual([]);
  const again = download(`/f/${sid}?f=ogg`);
  expect(await again.status).toBe(200);
  expect((await again.headers)['content-length']).toBeUndefined();
  await again.firstBytes;
  again.close();
  await until('the second run to stop', 30_000, () => (ffmpegs().length === 0 ? true : undefined));
}, 120_000);

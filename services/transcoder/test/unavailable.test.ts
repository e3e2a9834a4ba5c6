/**
 * A transcoder without a usable ffmpeg still starts, and says what is missing: a download-time
 * transcode (`?f=`) and a probe announcing an upload's target are answered 503 naming the binary or
 * encoder, on the field that asked; what it can still do (a probe, a target whose encoder it has)
 * works. Real transcoder on the in-process bus, real ffmpeg behind a stand-in that hides encoders.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Subjects, type BusReply } from '@patchbay/contracts';
import type { BinarySettings } from '../src/ffmpeg/candidates';
import { noiseWav } from './support/audio';
import { ffmpegWithout } from './support/fake-ffmpeg';
import { startTranscoderKit } from './support/transcoder-kit';

type Kit = Awaited<ReturnType<typeof startTranscoderKit>>;

async function withKit(name: string, binaries: BinarySettings, run: (kit: Kit) => Promise<void>): Promise<void> {
  const kit = await startTranscoderKit(name, { binaries });
  try {
    const wav = path.join(kit.root, 'tone.wav');
    noiseWav(wav, 8000, 1, 1);
    await kit.blobs.put('files/P/tone', fs.createReadStream(wav));
    await run(kit);
  } finally {
    await kit.stop();
  }
}

const transcode = (kit: Kit, target: string): Promise<BusReply> =>
  kit
    .bus()
    .request(
      Subjects.transcoder.transcode,
      { blob_key: 'files/P/tone', source_format: 'wav', target, bitrate: null, output_key: `cache/tone/${target}` },
      { timeoutMs: 30_000 },
    );
const probe = (kit: Kit, target?: string): Promise<BusReply> =>
  kit
    .bus()
    .request(
      Subjects.transcoder.probe,
      { blob_key: 'files/P/tone', format: 'wav', ...(target ? { target } : {}) },
      { timeoutMs: 30_000 },
    );

test('an ffmpeg without libmp3lame: mp3 is refused naming the encoder, wav still works', async () => {
  // Only the stand-in is on the search path: Debian's ffmpeg (every encoder) would be chosen over it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-nolame-'));
  const partial = ffmpegWithout(path.join(dir, 'bin'), ['libmp3lame']);
  fs.symlinkSync('/usr/bin/ffprobe', path.join(dir, 'bin', 'ffprobe'));
  await withKit('no-lame', { searchPath: path.join(dir, 'bin'), npm: false }, async (kit) => {
    const mp3 = await transcode(kit, 'mp3');
    expect(mp3).toEqual({
      status: 503,
      error: {
        message: `transcoding is unavailable: the ffmpeg at ${partial} has no libmp3lame encoder, which mp3 needs`,
        errors: [
          {
            field: 'f',
            message: `the ffmpeg at ${partial} has no libmp3lame encoder, which mp3 needs`,
            reference_sid: null,
          },
        ],
      },
      code: 'unavailable',
    });
    expect(await transcode(kit, 'wav')).toMatchObject({ status: 200, body: { size: expect.any(Number) } });
    expect(await probe(kit, 'mp3')).toMatchObject({
      status: 503,
      error: { errors: [{ field: 'desired_format', message: expect.stringContaining('libmp3lame') }] },
    });
    expect(await probe(kit)).toMatchObject({ status: 200, body: { duration: 1, format: 'wav' } });
  });
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

test('no ffmpeg and no ffprobe at all: the transcoder starts, and every request says what is missing', async () => {
  await withKit('no-ffmpeg', { searchPath: '/nonexistent', npm: false }, async (kit) => {
    const reply = await transcode(kit, 'mp3');
    expect(reply).toMatchObject({
      status: 503,
      error: {
        message: expect.stringMatching(
          /^transcoding is unavailable: no working ffmpeg: FFMPEG_PATH is not set; no ffmpeg on PATH; /,
        ),
      },
    });
    expect(await probe(kit)).toMatchObject({
      status: 503,
      error: { message: expect.stringMatching(/no working ffprobe: FFPROBE_PATH is not set; no ffprobe on PATH/) },
    });
  });
}, 60_000);

/**
 * Which ffmpeg and ffprobe the transcoder takes: FFMPEG_PATH / FFPROBE_PATH, then PATH, then the
 * static builds of the optional npm packages — the first that runs and has every encoder — and
 * what it says when none does. Real binaries: Debian's, the npm ones, and shell stand-ins.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REQUIRED_ENCODERS, Toolkit } from '../../src/ffmpeg/toolkit';
import { npmPackageOf } from '../../src/ffmpeg/candidates';
import { brokenBinary, ffmpegWithout } from '../support/fake-ffmpeg';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-toolkit-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A search path with the system's ffprobe but no ffmpeg. */
function pathWithProbeOnly(): string {
  const dir = path.join(root, 'probe-only');
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, 'ffprobe'))) fs.symlinkSync('/usr/bin/ffprobe', path.join(dir, 'ffprobe'));
  return dir;
}

test('the encoders checked are the ones the targets write with', () => {
  expect([...REQUIRED_ENCODERS].sort()).toEqual([
    'aac',
    'flac',
    'g722',
    'libmp3lame',
    'libvorbis',
    'pcm_alaw',
    'pcm_mulaw',
    'pcm_s16le',
  ]);
});

test('FFMPEG_PATH comes first, and the version it reports is kept', async () => {
  const kit = await Toolkit.resolve({
    ffmpegPath: '/usr/bin/ffmpeg',
    ffprobePath: '/usr/bin/ffprobe',
    searchPath: '',
    npm: false,
  });
  expect(kit.describe()).toMatchObject({
    ffmpeg: { path: '/usr/bin/ffmpeg', source: 'FFMPEG_PATH', version: expect.stringMatching(/^\d+\.\d+/) },
    ffprobe: { source: 'FFPROBE_PATH' },
    missing_encoders: [],
  });
  expect(kit.cannotWrite('mp3')).toBeNull();
  expect(kit.complete()).toBe(true);
});

test('an FFMPEG_PATH that does not run is passed over for the one on PATH', async () => {
  const broken = brokenBinary(path.join(root, 'broken'), 'ffmpeg', 'fails');
  const kit = await Toolkit.resolve({ ffmpegPath: broken, searchPath: '/usr/bin', npm: false });
  expect(kit.ffmpeg.chosen).toMatchObject({ path: '/usr/bin/ffmpeg', source: 'PATH' });
  expect(kit.ffmpeg.passedOver[0]).toMatch(
    /broken\/ffmpeg \(FFMPEG_PATH\) does not run \(error while loading shared libraries/,
  );
});

test("without a system ffmpeg the npm package's static build is used, and it has every encoder", async () => {
  const kit = await Toolkit.resolve({ searchPath: pathWithProbeOnly(), npm: true });
  expect(kit.ffmpeg.chosen).toMatchObject({ source: npmPackageOf('ffmpeg') });
  expect(kit.ffmpeg.chosen?.path).toContain(path.join('node_modules', '@ffmpeg-installer'));
  expect(kit.ffmpeg.missing).toEqual([]);
  expect(kit.canTranscode()).toBe(true);
});

test('a build lacking an encoder is passed over for one that has them all', async () => {
  const partial = ffmpegWithout(path.join(root, 'no-lame-1'), ['libmp3lame']);
  const kit = await Toolkit.resolve({ ffmpegPath: partial, searchPath: '/usr/bin', npm: false });
  expect(kit.ffmpeg.chosen?.path).toBe('/usr/bin/ffmpeg');
  expect(kit.ffmpeg.passedOver[0]).toBe(`${partial} (FFMPEG_PATH) lacks the encoders libmp3lame`);
});

test(
  'when the only ffmpeg lacks an encoder, it is used for what it can ' + 'write and the rest is refused by name',
  async () => {
    const partial = ffmpegWithout(path.join(root, 'no-lame-2'), ['libmp3lame', 'libvorbis']);
    const kit = await Toolkit.resolve({ ffmpegPath: partial, searchPath: pathWithProbeOnly(), npm: false });
    expect(kit.ffmpeg.chosen?.path).toBe(partial);
    expect(kit.ffmpeg.missing).toEqual(['libmp3lame', 'libvorbis']);
    expect([kit.complete(), kit.canTranscode()]).toEqual([false, true]);
    expect(kit.cannotWrite('wav')).toBeNull();
    expect(kit.cannotWrite('mp3')).toBe(`the ffmpeg at ${partial} has no libmp3lame encoder, which mp3 needs`);
    expect(kit.cannotWrite('ogg')).toMatch(/no libvorbis encoder, which ogg needs/);
  },
);

test('with no ffmpeg at all, every candidate is named with why it was not used', async () => {
  const notExec = brokenBinary(path.join(root, 'not-exec'), 'ffmpeg', 'not-executable');
  const kit = await Toolkit.resolve({ ffmpegPath: notExec, searchPath: path.join(root, 'empty'), npm: false });
  expect(kit.ffmpeg.chosen).toBeNull();
  expect(kit.canTranscode()).toBe(false);
  expect(kit.cannotWrite('mp3')).toBe(
    `no working ffmpeg: ${notExec} (FFMPEG_PATH) is not executable; no ` +
      `ffmpeg on PATH; ${npmPackageOf('ffmpeg')} is not used ` +
      `(TRANSCODER_NPM_FFMPEG=false)`,
  );
  expect(kit.cannotProbe()).toBe(
    `no working ffprobe: FFPROBE_PATH is not set; no ffprobe on PATH; ` +
      `${npmPackageOf('ffprobe')} is not used (TRANSCODER_NPM_FFMPEG=false)`,
  );
});

test('a working ffmpeg without ffprobe cannot transcode either (bitrates and progress need the probe)', async () => {
  const kit = await Toolkit.resolve({
    ffmpegPath: '/usr/bin/ffmpeg',
    searchPath: path.join(root, 'empty'),
    npm: false,
  });
  expect(kit.ffmpeg.chosen).not.toBeNull();
  expect(kit.cannotWrite('wav')).toMatch(/^no working ffprobe: /);
  expect(kit.canTranscode()).toBe(false);
});

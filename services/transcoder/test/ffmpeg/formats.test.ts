import { MEDIA_FORMATS, TARGET_FORMATS } from '@patchbay/contracts';
import { encoderOf, FORMATS, inputArgs } from '../../src/ffmpeg/formats';

describe('the transcoder formats: the shared table plus how each is written', () => {
  test('every format of the shared table, with its mime, input flags and bitrate flag unchanged', () => {
    expect(Object.keys(FORMATS).sort()).toEqual([...TARGET_FORMATS].sort());
    for (const f of MEDIA_FORMATS)
      expect(FORMATS[f.extension]).toMatchObject({
        extension: f.extension,
        mime: f.mime,
        input: f.input,
        bitrate: f.bitrate,
      });
  });

  test('the encoder of each target', () => {
    expect(Object.fromEntries(TARGET_FORMATS.map((t) => [t, encoderOf(FORMATS[t])]))).toEqual({
      al: 'pcm_alaw',
      alaw: 'pcm_alaw',
      ul: 'pcm_mulaw',
      ulaw: 'pcm_mulaw',
      g722: 'g722',
      flac: 'flac',
      mp3: 'libmp3lame',
      ogg: 'libvorbis',
      wav: 'pcm_s16le',
      mp4: 'aac',
    });
    expect(FORMATS.mp3.rates).toContain(44100);
    expect(inputArgs('ul')).toEqual(['-f', 'mulaw', '-ar', '8000', '-ac', '1']);
  });
});

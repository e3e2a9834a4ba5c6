import {
  AUDIO_FORMATS,
  BITRATE_FORMATS,
  describeMediaMimes,
  ffmpegInputArgs,
  formatOfMime,
  isTargetFormat,
  MEDIA_FORMATS,
  mediaFormat,
  mimeOfFormat,
  TARGET_FORMATS,
} from '../src';

describe('the media formats table', () => {
  test('one entry per name, in the order of the interface notes; mp4 the only target-only format', () => {
    const names = MEDIA_FORMATS.map((f) => f.extension);
    expect(new Set(names).size).toBe(names.length);
    expect(AUDIO_FORMATS).toEqual(['al', 'alaw', 'flac', 'g722', 'mp3', 'ogg', 'ul', 'ulaw', 'wav']);
    expect(TARGET_FORMATS).toEqual([...AUDIO_FORMATS, 'mp4']);
    expect(BITRATE_FORMATS).toEqual(['mp3', 'ogg', 'mp4']);
  });

  test('the Content-Type of each format (interface notes, Transcoding targets and bitrates)', () => {
    expect(Object.fromEntries(TARGET_FORMATS.map((f) => [f, mimeOfFormat(f)]))).toEqual({
      al: 'audio/basic',
      alaw: 'audio/basic',
      ul: 'audio/basic',
      ulaw: 'audio/basic',
      flac: 'audio/flac',
      g722: 'audio/G722',
      mp3: 'audio/mpeg',
      mp4: 'video/mp4',
      ogg: 'audio/ogg',
      wav: 'audio/x-wav',
    });
    expect(mimeOfFormat('aiff')).toBeUndefined();
    expect(mimeOfFormat(null)).toBeUndefined();
    expect(describeMediaMimes()).toBe(
      'al/alaw/ul/ulaw audio/basic, flac audio/flac, g722 audio/G722, mp3 ' +
        'audio/mpeg, mp4 video/mp4, ogg audio/ogg, wav audio/x-wav',
    );
  });

  test('headerless formats name their input format to ffmpeg; the others are probed', () => {
    expect(ffmpegInputArgs('al')).toEqual(['-f', 'alaw', '-ar', '8000', '-ac', '1']);
    expect(ffmpegInputArgs('alaw')).toEqual(ffmpegInputArgs('al'));
    expect(ffmpegInputArgs('ulaw')).toEqual(['-f', 'mulaw', '-ar', '8000', '-ac', '1']);
    expect(ffmpegInputArgs('g722')).toEqual(['-f', 'g722']);
    for (const f of ['flac', 'mp3', 'ogg', 'wav', 'mp4', 'unknown', null, undefined])
      expect(ffmpegInputArgs(f)).toEqual([]);
    // A copy: a caller pushing onto it does not change the table.
    ffmpegInputArgs('g722').push('-x');
    expect(mediaFormat('g722')?.input).toEqual(['-f', 'g722']);
  });

  test('a mime type alone names a format only where the table says so', () => {
    expect(formatOfMime('audio/basic')).toBe('ul');
    expect(formatOfMime('audio/wav')).toBe('wav');
    expect(formatOfMime('audio/x-wav')).toBe('wav');
    expect(formatOfMime('audio/mpeg')).toBe('mp3');
    expect(formatOfMime('audio/G722')).toBe('g722');
    expect(formatOfMime('audio/ogg')).toBeUndefined();
    expect(formatOfMime('application/pdf')).toBeUndefined();
  });

  test('names are exact: case matters, unknown names are not formats', () => {
    expect(isTargetFormat('mp4')).toBe(true);
    expect(isTargetFormat('MP3')).toBe(false);
    expect(isTargetFormat('toString')).toBe(false);
  });
});

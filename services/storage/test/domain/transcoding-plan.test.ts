import { UnprocessableError } from '@patchbay/contracts';
import { planTranscoding, type TranscodingAsk } from '../../src/domain/transcoding-plan';

const ask = (over: Partial<TranscodingAsk> = {}): TranscodingAsk => ({
  type: 'audio',
  desired_format: null,
  desired_bitrate: null,
  ...over,
});
const mp3At128 = { format: 'mp3', bitrate: 128000 };
const wav8k = { format: 'wav', bitrate: 128000 };

describe('upload-time transcoding plan', () => {
  test('nothing without type audio, or without a format or bitrate to change', () => {
    expect(planTranscoding(ask({ type: 'file', desired_format: 'mp3' }), wav8k)).toBeNull();
    expect(planTranscoding(ask(), wav8k)).toBeNull();
    expect(planTranscoding(ask({ desired_format: 'wav' }), wav8k)).toBeNull();
  });

  test('desired_bitrate alone applies to mp3 files only', () => {
    expect(planTranscoding(ask({ desired_bitrate: 32 }), mp3At128)).toEqual({ target: 'mp3', bitrate: 32 });
    expect(planTranscoding(ask({ desired_bitrate: 32 }), wav8k)).toBeNull();
    // Before probing (bitrate unknown) the request is taken as it is: the source is probed.
    expect(planTranscoding(ask({ desired_bitrate: 320 }), { format: 'mp3', bitrate: null })).toEqual({
      target: 'mp3',
      bitrate: 320,
    });
  });

  test('desired_bitrate never makes a file bigger: at or above the source bitrate it is ignored', () => {
    expect(planTranscoding(ask({ desired_bitrate: 320 }), mp3At128)).toBeNull();
    expect(planTranscoding(ask({ desired_bitrate: 128 }), mp3At128)).toBeNull();
    expect(planTranscoding(ask({ desired_bitrate: 112 }), mp3At128)).toEqual({ target: 'mp3', bitrate: 112 });
    // A format change still happens, at the encoder's default rate.
    expect(planTranscoding(ask({ desired_format: 'ogg', desired_bitrate: 320 }), mp3At128)).toEqual({
      target: 'ogg',
      bitrate: null,
    });
    expect(planTranscoding(ask({ desired_format: 'ogg', desired_bitrate: 96 }), wav8k)).toEqual({
      target: 'ogg',
      bitrate: 96,
    });
    // Unknown source bitrate: the request is taken as it is.
    expect(
      planTranscoding(ask({ desired_format: 'mp4', desired_bitrate: 64 }), { format: 'flac', bitrate: null }),
    ).toEqual({ target: 'mp4', bitrate: 64 });
  });

  test('targets of fixed or lossless rate take no bitrate', () => {
    for (const target of ['al', 'alaw', 'ul', 'ulaw', 'g722', 'wav', 'flac']) {
      expect(planTranscoding(ask({ desired_format: target, desired_bitrate: 8 }), mp3At128)).toEqual({
        target,
        bitrate: null,
      });
    }
  });

  test('mp4 is a target only: transcoding an mp4 source is a 422 naming the field that asked for it', () => {
    const mp4 = { format: 'mp4', bitrate: 128000 };
    const refusal = (a: TranscodingAsk) => {
      try {
        planTranscoding(a, mp4);
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const byFormat = refusal(ask({ desired_format: 'mp3' }));
    expect(byFormat).toBeInstanceOf(UnprocessableError);
    expect((byFormat as UnprocessableError).errors[0].field).toBe('desired_format');
    expect((refusal(ask({ desired_format: 'mp4', desired_bitrate: 32 })) as UnprocessableError).errors[0].field).toBe(
      'desired_bitrate',
    );
    // Nothing to transcode: stored as it is, no error.
    expect(planTranscoding(ask({ desired_format: 'mp4' }), mp4)).toBeNull();
    expect(planTranscoding(ask({ desired_format: 'mp4', desired_bitrate: 320 }), mp4)).toBeNull();
    expect(planTranscoding(ask({ desired_bitrate: 32 }), mp4)).toBeNull();
  });
});

import { BITRATES } from '@patchbay/contracts';
import { planOutput, STANDARD_RATES } from '../../src/domain/output-plan';

describe('encoder settings for a requested bitrate', () => {
  test('worked examples: what the 8 kHz mono and 44.1 kHz stereo sources of the issue get', () => {
    expect(planOutput('ogg', 96, { sampleRate: 8000, channels: 1 })).toEqual({
      sampleRate: 8000,
      channels: 1,
      bitrate: 42,
    });
    expect(planOutput('ogg', 40, { sampleRate: 44100, channels: 2 })).toEqual({
      sampleRate: 44100,
      channels: 1,
      bitrate: 40,
    });
    expect(planOutput('ogg', 8, { sampleRate: 44100, channels: 2 })).toEqual({
      sampleRate: 8000,
      channels: 1,
      bitrate: 8,
    });
    expect(planOutput('mp3', 8, { sampleRate: 44100, channels: 2 })).toEqual({
      sampleRate: 24000,
      channels: 1,
      bitrate: 8,
    });
    expect(planOutput('mp3', 320, { sampleRate: 8000, channels: 1 })).toEqual({
      sampleRate: 8000,
      channels: 1,
      bitrate: 64,
    });
    expect(planOutput('mp4', 128, { sampleRate: 44100, channels: 2 })).toEqual({
      sampleRate: 44100,
      channels: 2,
      bitrate: 128,
    });
  });

  test('no bitrate, or a target without one: nothing to adapt', () => {
    expect(planOutput('ogg', null, { sampleRate: 8000, channels: 1 })).toEqual({
      sampleRate: null,
      channels: null,
      bitrate: null,
    });
    for (const target of ['al', 'alaw', 'ul', 'ulaw', 'g722', 'wav', 'flac']) {
      expect(planOutput(target, 8, { sampleRate: 44100, channels: 2 })).toEqual({
        sampleRate: null,
        channels: null,
        bitrate: null,
      });
    }
  });

  test(
    'any source (odd rates, surround, unknown): never above the request, ' +
      'never up-sampled or up-mixed past the source',
    () => {
      const sources = [6000, 8000, 11025, 22050, 44100, 48000, 96000, 192000, null].flatMap((sampleRate) =>
        [1, 2, 6, null].map((channels) => ({ sampleRate, channels })),
      );
      for (const target of ['mp3', 'ogg', 'mp4'])
        for (const source of sources)
          for (const br of BITRATES) {
            const plan = planOutput(target, br, source);
            const at = JSON.stringify({ target, source, br, plan });
            expect([at, plan.bitrate !== null && plan.bitrate <= br]).toEqual([at, true]);
            expect([at, (STANDARD_RATES as readonly number[]).includes(plan.sampleRate ?? 0)]).toEqual([at, true]);
            expect([
              at,
              source.sampleRate === null || source.sampleRate < 8000 || (plan.sampleRate ?? 0) <= source.sampleRate,
            ]).toEqual([at, true]);
            expect([at, (plan.channels ?? 0) <= Math.min(2, source.channels ?? 2)]).toEqual([at, true]);
          }
    },
  );
});

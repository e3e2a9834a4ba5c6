/**
 * Download-time transcoding (`svc.transcoder.media.transcode`, what `?f=…&br=…` asks for) never
 * breaks on an allowed bitrate: every lossy target at every allowed bitrate (the others at three), from an 8 kHz mono
 * and a 44.1 kHz stereo source (docs/interface-notes.md, Transcoding targets and bitrates). Real
 * ffmpeg on one-second noise clips. Lossy targets honour the bitrate (a low one by resampling); the
 * others have a fixed or lossless rate and ignore it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BITRATES, Subjects, TARGET_FORMATS, unwrapReply } from '@patchbay/contracts';
import { FORMATS } from '../src/ffmpeg/formats';
import { inspect, noiseWav, withinBitrate } from './support/audio';
import { startTranscoderKit } from './support/transcoder-kit';

const SOURCES = { 'mono-8k': { rate: 8000, channels: 1 }, 'stereo-44k': { rate: 44100, channels: 2 } } as const;
/** What each fixed-rate target always writes, whatever the source. */
const FIXED: Record<string, { sampleRate: number; channels: number }> = {
  al: { sampleRate: 8000, channels: 1 },
  alaw: { sampleRate: 8000, channels: 1 },
  ul: { sampleRate: 8000, channels: 1 },
  ulaw: { sampleRate: 8000, channels: 1 },
  g722: { sampleRate: 16000, channels: 1 },
};

let kit: Awaited<ReturnType<typeof startTranscoderKit>>;
let client: ReturnType<typeof kit.bus>;

beforeAll(async () => {
  kit = await startTranscoderKit('bitrates-download');
  client = kit.bus();
  for (const [name, s] of Object.entries(SOURCES))
    await kit.blobs.put(`files/P/${name}`, fs.createReadStream(fixture(name, s)));
});
afterAll(async () => {
  await kit?.stop();
});

function fixture(name: string, s: { rate: number; channels: number }): string {
  const file = path.join(kit.root, 'fixtures', `${name}.wav`);
  noiseWav(file, s.rate, s.channels, 1);
  return file;
}

/**
 * Every allowed bitrate where a bitrate changes the output (the lossy targets); where it does not,
 * the lowest, a middle and the highest show it is ignored without running the same encode 16 times.
 */
function bitratesFor(target: string): readonly number[] {
  return FORMATS[target].bitrate ? BITRATES : [BITRATES[0], 128, BITRATES[BITRATES.length - 1]];
}

const cases = Object.keys(SOURCES).flatMap((source) => TARGET_FORMATS.map((target) => [source, target] as const));

test.each(cases)(
  '%s to %s at every bitrate that changes it (three where it is ignored)',
  async (source, target) => {
    const src = SOURCES[source as keyof typeof SOURCES];
    const results = await Promise.all(
      bitratesFor(target).map(async (br) => {
        const outputKey = `cache/${source}/${target}-${br}`;
        const reply = await client.request(
          Subjects.transcoder.transcode,
          { blob_key: `files/P/${source}`, source_format: 'wav', target, bitrate: br, output_key: outputKey },
          { timeoutMs: 120_000 },
        );
        const { size } = unwrapReply<{ size: number }>(reply);
        return {
          br,
          size,
          audio: await inspect(kit.blobFile(outputKey), target),
          bytes: fs.statSync(kit.blobFile(outputKey)).size,
        };
      }),
    );
    for (const r of results) {
      expect({ br: r.br, size: r.size }).toEqual({ br: r.br, size: r.bytes });
      expect(Math.abs(r.audio.duration - 1)).toBeLessThan(0.2);
      if (FORMATS[target].bitrate) {
        expect({
          br: r.br,
          kbps: Math.round(r.audio.payloadKbps),
          honoured: withinBitrate(r.audio.payloadKbps, r.br),
        }).toEqual({ br: r.br, kbps: Math.round(r.audio.payloadKbps), honoured: true });
        expect(r.audio.sampleRate).toBeLessThanOrEqual(src.rate);
      } else if (FIXED[target]) {
        expect({ sampleRate: r.audio.sampleRate, channels: r.audio.channels }).toEqual(FIXED[target]);
      } else {
        // Lossless (wav, flac): the source as it is, whatever the bitrate asked.
        expect({ sampleRate: r.audio.sampleRate, channels: r.audio.channels }).toEqual({
          sampleRate: src.rate,
          channels: src.channels,
        });
      }
    }
    if (!FORMATS[target].bitrate) expect(new Set(results.map((r) => r.bytes)).size).toBe(1);
  },
  120_000,
);

test(
  'a 96 kHz source to mp3, with and without a bitrate: LAME cannot write ' + '96 kHz, so the rate is fitted',
  async () => {
    await kit.blobs.put('files/P/hi-res', fs.createReadStream(fixture('hi-res', { rate: 96000, channels: 2 })));
    for (const br of [null, 128]) {
      const outputKey = `cache/hi-res/mp3-${br ?? 'src'}`;
      unwrapReply(
        await client.request(
          Subjects.transcoder.transcode,
          { blob_key: 'files/P/hi-res', source_format: 'wav', target: 'mp3', bitrate: br, output_key: outputKey },
          { timeoutMs: 60_000 },
        ),
      );
      const audio = await inspect(kit.blobFile(outputKey), 'mp3');
      expect({ br, sampleRate: audio.sampleRate, channels: audio.channels }).toEqual({
        br,
        sampleRate: 48000,
        channels: 2,
      });
    }
  },
);

/**
 * Upload-time transcoding (`job.transcoder.upload`, what `type=audio` with `desired_format` and
 * `desired_bitrate` asks for) never breaks on an allowed bitrate: every lossy target at every allowed
 * bitrate, the others at three (docs/interface-notes.md, Transcoding targets and bitrates), from an 8 kHz mono and a
 * 44.1 kHz stereo source, each job reported to storage with a description of the new data that
 * matches the blob. Real ffmpeg on one-second noise clips.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BITRATES, Subjects, TARGET_FORMATS } from '@patchbay/contracts';
import { FORMATS } from '../src/ffmpeg/formats';
import { inspect, noiseWav, withinBitrate } from './support/audio';
import { storageStandIn } from './support/storage-stand-in';
import { startTranscoderKit } from './support/transcoder-kit';

const SOURCES = { 'mono-8k': { rate: 8000, channels: 1 }, 'stereo-44k': { rate: 44100, channels: 2 } } as const;

let kit: Awaited<ReturnType<typeof startTranscoderKit>>;
let producer: ReturnType<typeof kit.bus>;
let storage: Awaited<ReturnType<typeof storageStandIn>>;
const blobKeys = new Map<string, string>();

beforeAll(async () => {
  // Upload-time results are written durably (fsync): more jobs at once keep both cores busy.
  kit = await startTranscoderKit('bitrates-upload', { concurrency: 4 });
  producer = kit.bus();
  storage = await storageStandIn(kit.bus(), blobKeys, kit.blobs);
  for (const [name, s] of Object.entries(SOURCES)) {
    const file = path.join(kit.root, 'fixtures', `${name}.wav`);
    noiseWav(file, s.rate, s.channels, 1);
    await kit.blobs.put(`files/P/${name}`, fs.createReadStream(file));
  }
});
afterAll(async () => {
  await kit?.stop();
});

/**
 * Every allowed bitrate where a bitrate changes the output (the lossy targets); where it does not,
 * the lowest, a middle and the highest show it is ignored without running the same encode 16 times.
 */
function bitratesFor(target: string): readonly number[] {
  return FORMATS[target].bitrate ? BITRATES : [BITRATES[0], 128, BITRATES[BITRATES.length - 1]];
}

const cases = Object.keys(SOURCES).flatMap((source) => TARGET_FORMATS.map((target) => [source, target] as const));

test.each(cases)(
  '%s stored as %s at every desired_bitrate that changes it (three where it is ignored)',
  async (source, target) => {
    const results = await Promise.all(
      bitratesFor(target).map(async (br) => {
        const fileSid = `${source}-${target}-${br}`;
        blobKeys.set(fileSid, `files/P/${source}`);
        const done = storage.next(fileSid);
        await producer.enqueue(Subjects.transcoder.uploadJob, {
          file_sid: fileSid,
          partner_sid: 'P',
          blob_key: `files/P/${source}`,
          source_format: 'wav',
          target,
          bitrate: br,
        });
        const report = await done;
        if (!report.blob_key) throw new Error(`${fileSid} failed: ${report.failed}`);
        const file = kit.blobFile(report.blob_key);
        // The stored blob is probed here only where the bitrate matters: the transcoder's own
        // description (checked below) covers the rest, and the download-time test the formats.
        return {
          br,
          report,
          bytes: fs.statSync(file).size,
          audio: FORMATS[target].bitrate ? await inspect(file, target) : null,
        };
      }),
    );
    for (const { br, report, bytes, audio } of results) {
      expect(report).toMatchObject({ content_format: target, file_bytes: bytes });
      expect(Math.abs((report.content_duration ?? 0) - 1)).toBeLessThan(0.2);
      if (audio) {
        expect(Math.abs(audio.duration - 1)).toBeLessThan(0.2);
        expect({ br, kbps: Math.round(audio.payloadKbps), honoured: withinBitrate(audio.payloadKbps, br) }).toEqual({
          br,
          kbps: Math.round(audio.payloadKbps),
          honoured: true,
        });
      }
    }
  },
  120_000,
);

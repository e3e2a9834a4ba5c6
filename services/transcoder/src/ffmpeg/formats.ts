import { ffmpegInputArgs, MEDIA_FORMATS, type MediaFormat, type TargetFormat } from '@patchbay/contracts';

/**
 * How ffmpeg writes each format of the contracts' media-format table. Everything else about a
 * format (mime, extension, input flags, target-only, bitrate) comes from that table.
 */
interface Encoding {
  /** ffmpeg arguments for writing it (codec, container, sample rate). */
  output: string[];
  /**
   * Sample rates the encoder can write, when it cannot write every rate. ffmpeg 5.1 does not fit
   * the rate to LAME by itself (a 96 kHz wav fails "sample rate 96000 is not supported"), so the
   * output is constrained to these and ffmpeg picks the nearest to the source.
   */
  rates?: readonly number[];
}

const ALAW: Encoding = { output: ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_alaw', '-f', 'alaw'] };
const ULAW: Encoding = { output: ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', '-f', 'mulaw'] };

const ENCODINGS: Record<TargetFormat, Encoding> = {
  al: ALAW,
  alaw: ALAW,
  ul: ULAW,
  ulaw: ULAW,
  g722: { output: ['-ar', '16000', '-ac', '1', '-c:a', 'g722', '-f', 'g722'] },
  flac: { output: ['-c:a', 'flac', '-f', 'flac'] },
  mp3: {
    output: ['-c:a', 'libmp3lame', '-f', 'mp3'],
    rates: [48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000],
  },
  ogg: { output: ['-c:a', 'libvorbis', '-f', 'ogg'] },
  wav: { output: ['-c:a', 'pcm_s16le', '-f', 'wav'] },
  // mp4 is a target only; the moov atom goes first so ranges and streaming work.
  mp4: { output: ['-vn', '-c:a', 'aac', '-movflags', '+faststart', '-f', 'mp4'] },
};

/** A format as the transcoder uses it: the shared table's entry and how it is written. */
export type FormatSpec = MediaFormat & Encoding;

export const FORMATS: Record<string, FormatSpec> = Object.fromEntries(
  MEDIA_FORMATS.map((f) => [f.extension, { ...f, ...ENCODINGS[f.extension] }]),
);

/** The encoder a target is written with (its `-c:a`): what the start-up check looks for in ffmpeg. */
export function encoderOf(spec: FormatSpec): string {
  return spec.output[spec.output.indexOf('-c:a') + 1];
}

/** Input arguments for a stored file, by its `content_format` (raw formats need them; others are probed). */
export const inputArgs = ffmpegInputArgs;

/**
 * The audio formats of interface.md and how ffmpeg reads and writes each. Headerless telephony
 * formats (al/alaw, ul/ulaw, g722) carry no header, so their input format must be named.
 */
export interface FormatSpec {
  /** ffmpeg arguments placed before `-i` when reading this format. */
  input: string[];
  /** ffmpeg arguments for writing it (codec, container, sample rate). */
  output: string[];
  mime: string;
  extension: string;
  /** True when the output accepts a bitrate (`-b:a`): the lossy compressed targets. */
  bitrate: boolean;
  /**
   * Sample rates the encoder can write, when it cannot write every rate. ffmpeg 5.1 does not fit
   * the rate to LAME by itself (a 96 kHz wav fails "sample rate 96000 is not supported"), so the
   * output is constrained to these and ffmpeg picks the nearest to the source.
   */
  rates?: readonly number[];
}

const alaw: FormatSpec = { input: ['-f', 'alaw', '-ar', '8000', '-ac', '1'], output: ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_alaw', '-f', 'alaw'], mime: 'audio/basic', extension: 'al', bitrate: false };
const ulaw: FormatSpec = { input: ['-f', 'mulaw', '-ar', '8000', '-ac', '1'], output: ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', '-f', 'mulaw'], mime: 'audio/basic', extension: 'ul', bitrate: false };

export const FORMATS: Record<string, FormatSpec> = {
  al: alaw,
  alaw: { ...alaw, extension: 'alaw' },
  ul: ulaw,
  ulaw: { ...ulaw, extension: 'ulaw' },
  g722: { input: ['-f', 'g722'], output: ['-ar', '16000', '-ac', '1', '-c:a', 'g722', '-f', 'g722'], mime: 'audio/G722', extension: 'g722', bitrate: false },
  flac: { input: [], output: ['-c:a', 'flac', '-f', 'flac'], mime: 'audio/flac', extension: 'flac', bitrate: false },
  mp3: { input: [], output: ['-c:a', 'libmp3lame', '-f', 'mp3'], mime: 'audio/mpeg', extension: 'mp3', bitrate: true, rates: [48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000] },
  ogg: { input: [], output: ['-c:a', 'libvorbis', '-f', 'ogg'], mime: 'audio/ogg', extension: 'ogg', bitrate: true },
  wav: { input: [], output: ['-c:a', 'pcm_s16le', '-f', 'wav'], mime: 'audio/x-wav', extension: 'wav', bitrate: false },
  // mp4 is a target only; the moov atom goes first so ranges and streaming work.
  mp4: { input: [], output: ['-vn', '-c:a', 'aac', '-movflags', '+faststart', '-f', 'mp4'], mime: 'video/mp4', extension: 'mp4', bitrate: true },
};

/** The encoder a target is written with (its `-c:a`): what the start-up check looks for in ffmpeg. */
export function encoderOf(spec: FormatSpec): string {
  return spec.output[spec.output.indexOf('-c:a') + 1];
}

/** Input arguments for a stored file, by its `content_format` (raw formats need them; others are probed). */
export function inputArgs(format: string | null | undefined): string[] {
  return format && FORMATS[format] ? FORMATS[format].input : [];
}

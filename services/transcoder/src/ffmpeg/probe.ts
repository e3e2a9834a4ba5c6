import { PROBE_RUN_MS } from '@patchbay/contracts';
import { ffprobePath } from './binaries';
import { inputArgs } from './formats';
import { run } from './run';

export interface ProbeResult {
  /** Seconds, millisecond precision; null when there is no audio stream. */
  duration: number | null;
  /**
   * Format name as the API names formats, where it maps (mp3, wav, ogg, flac, …;
   * docs/interface-notes.md, Transcoding targets and bitrates).
   */
  format: string | null;
  /**
   * Bits per second, when known: the audio stream's own (a 128 kbit/s mp3 says 128000), else the
   * whole file's (flac), which counts headers and tags too. `br` and `desired_bitrate` compare with it.
   */
  bitrate: number | null;
  /** Of the first audio stream, when there is one (the encoder settings depend on them). */
  sampleRate: number | null;
  channels: number | null;
}

const FORMAT_NAMES: Record<string, string> = {
  mp3: 'mp3',
  wav: 'wav',
  ogg: 'ogg',
  flac: 'flac',
  alaw: 'al',
  mulaw: 'ul',
  g722: 'g722',
  'mov,mp4,m4a,3gp,3g2,mj2': 'mp4',
};

interface Probed {
  format?: { duration?: string; format_name?: string; bit_rate?: string };
  streams?: Array<{ codec_type?: string; sample_rate?: string; channels?: number; bit_rate?: string }>;
}

const positive = (v: unknown): number | null => (Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : null);

/**
 * ffprobe of a local file (`format` names headerless inputs). Throws FfmpegError when it is not
 * media; aborting `signal` kills ffprobe and rejects with its reason.
 */
export async function probe(file: string, format: string | null, signal?: AbortSignal): Promise<ProbeResult> {
  const args = [
    '-v',
    'error',
    ...inputArgs(format),
    '-show_entries',
    'format=duration,format_name,bit_rate:stream=codec_type,sample_rate,channels,bit_rate',
    '-of',
    'json',
    file,
  ];
  // ffprobe's `-of json` has this shape; every field is optional here and read through Number()/positive().
  const parsed = JSON.parse(await run(ffprobePath(), args, { timeoutMs: PROBE_RUN_MS, signal })) as Probed;
  const audio = (parsed.streams ?? []).find((s) => s.codec_type === 'audio');
  const duration = Number(parsed.format?.duration);
  const bitrate = positive(audio?.bit_rate) ?? positive(parsed.format?.bit_rate);
  const name = parsed.format?.format_name ?? '';
  return {
    duration: audio && Number.isFinite(duration) ? Math.round(duration * 1000) / 1000 : null,
    format: FORMAT_NAMES[name] ?? (format || null),
    bitrate: bitrate === null ? null : Math.round(bitrate),
    sampleRate: positive(audio?.sample_rate),
    channels: positive(audio?.channels),
  };
}

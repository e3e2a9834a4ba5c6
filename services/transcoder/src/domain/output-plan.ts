/**
 * How a lossy encoder is set up for a requested bitrate, so that every allowed bitrate works for
 * every target and source (docs/interface-notes.md, Transcoding targets and bitrates;
 * decisions §20). Each encoder reaches only a band of bitrates at a given sample rate and channel
 * count: libvorbis refuses to open outside it (48 kbps at 8 kHz mono, or 40 kbps at 44.1 kHz
 * stereo), LAME and AAC silently encode at their floor instead (an 8 kbps request on 44.1 kHz
 * stereo gives 32 or 25 kbps). The plan keeps the source's rate and channels when the bitrate fits
 * them; a bitrate below the band mixes down to mono, then lowers the sample rate until it fits, so
 * a low bitrate is honoured; a bitrate above the band is lowered to the band's top (the nearest
 * valid one: more would add nothing the source has). Bitrates here are kbit/s. The bands were
 * measured with Debian 12's ffmpeg 5.1 (libvorbis 1.3.7, LAME 3.100).
 */

/** What the source is, from ffprobe; null when unknown (then the worst case is assumed). */
export interface SourceAudio {
  sampleRate: number | null;
  channels: number | null;
}

/** Encoder settings for one run; all null: the target's own defaults (nothing to adapt). */
export interface OutputPlan {
  sampleRate: number | null;
  channels: number | null;
  bitrate: number | null;
}

type Band = readonly [min: number, max: number];

interface Encoder {
  /** Sample rates the plan may choose, highest first. */
  rates: readonly number[];
  band(rate: number, channels: 1 | 2): Band;
}

/** Every rate LAME can write (MPEG-1, -2 and -2.5); Vorbis and AAC take them all too. */
export const STANDARD_RATES = [48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000] as const;

/**
 * libvorbis's managed-bitrate limits by sample rate: [mono, stereo]. It refuses to open outside
 * them. Mono floors at 11–24 kHz are set above libvorbis's own (12, 12, 16, 16) because there it
 * overshoots a bitrate at its floor by a third or more; a lower rate honours it.
 */
const VORBIS: Record<number, readonly [Band, Band]> = {
  48000: [
    [32, 240],
    [45, 500],
  ],
  44100: [
    [32, 240],
    [45, 500],
  ],
  32000: [
    [30, 190],
    [36, 380],
  ],
  24000: [
    [30, 90],
    [30, 180],
  ],
  22050: [
    [30, 90],
    [30, 180],
  ],
  16000: [
    [16, 100],
    [24, 200],
  ],
  12000: [
    [16, 50],
    [16, 100],
  ],
  11025: [
    [16, 50],
    [16, 100],
  ],
  8000: [
    [8, 42],
    [12, 84],
  ],
};

/** MPEG audio layer III: MPEG-1 rates 32–320, MPEG-2 8–160, MPEG-2.5 8–64, whatever the channels. */
const mp3Band = (rate: number): Band => (rate >= 32000 ? [32, 320] : rate >= 16000 ? [8, 160] : [8, 64]);

/**
 * ffmpeg's AAC encoder: the lowest bitrate it gets down to (it clamps a higher request to its own
 * maximum, so the top of the band needs no care).
 */
function aacFloor(rate: number, channels: 1 | 2): number {
  if (channels === 1) return rate <= 16000 ? 8 : rate <= 24000 ? 12 : 16;
  return rate <= 11025 ? 8 : rate <= 24000 ? 16 : 24;
}

const ENCODERS: Record<string, Encoder> = {
  mp3: { rates: STANDARD_RATES, band: mp3Band },
  ogg: { rates: STANDARD_RATES, band: (rate, channels) => VORBIS[rate][channels - 1] },
  mp4: { rates: STANDARD_RATES, band: (rate, channels) => [aacFloor(rate, channels), Number.POSITIVE_INFINITY] },
};

const UNCHANGED: OutputPlan = { sampleRate: null, channels: null, bitrate: null };

/**
 * Settings for encoding to `target` at about `bitrate` kbit/s (null: the encoder's default). Never
 * throws: any bitrate of the allowed list gets settings the encoder accepts, and the result is never
 * above the request (short of the container's overhead).
 */
export function planOutput(target: string, bitrate: number | null, source: SourceAudio): OutputPlan {
  const encoder = ENCODERS[target];
  if (!encoder || bitrate === null) return UNCHANGED;
  const channels: 1 | 2 = source.channels === 1 ? 1 : 2;
  const top =
    encoder.rates.find((r) => source.sampleRate === null || r <= source.sampleRate) ??
    encoder.rates[encoder.rates.length - 1];
  const candidates: Array<[number, 1 | 2]> = [[top, channels]];
  if (channels === 2) candidates.push([top, 1]);
  for (const rate of encoder.rates) if (rate < top) candidates.push([rate, 1]);
  const [rate, ch] = candidates.find(([r, c]) => encoder.band(r, c)[0] <= bitrate) ?? candidates[candidates.length - 1];
  const [min, max] = encoder.band(rate, ch);
  return { sampleRate: rate, channels: ch, bitrate: Math.max(min, Math.min(bitrate, max)) };
}

import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';

/** Headerless formats need their input format named for ffprobe, or the duration it reads is wrong. */
const PROBE_INPUT: Record<string, string[]> = {
  al: ['-f', 'alaw', '-sample_rate', '8000'],
  alaw: ['-f', 'alaw', '-sample_rate', '8000'],
  ul: ['-f', 'mulaw', '-sample_rate', '8000'],
  ulaw: ['-f', 'mulaw', '-sample_rate', '8000'],
  g722: ['-f', 'g722'],
};

/**
 * A small real source made by ffmpeg at test time: pink noise with a fixed seed (the same bytes every run; broadband,
 * so lossy encoders spend
 * the bits they are given, unlike a sine tone) as 16-bit wav.
 */
export function noiseWav(file: string, sampleRate: number, channels: number, seconds: number): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=color=pink:amplitude=0.25:seed=7:sample_rate=${sampleRate}:duration=${seconds}`,
      '-ac',
      String(channels),
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      file,
    ]);
  }
  return fs.readFileSync(file);
}

export interface Inspected {
  duration: number;
  sampleRate: number;
  channels: number;
  /** Audio payload only (packet sizes over the duration): headers and container left out, kbit/s. */
  payloadKbps: number;
}

const run = promisify(execFile);

/** ffprobe of a file in `format`; rejects when it is not decodable audio. */
export async function inspect(file: string, format: string): Promise<Inspected> {
  const { stdout: out } = await run('ffprobe', [
    '-v',
    'error',
    ...(PROBE_INPUT[format] ?? []),
    '-show_entries',
    'format=duration:stream=sample_rate,channels:packet=size',
    '-select_streams',
    'a:0',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(out) as {
    format: { duration: string };
    streams: Array<{ sample_rate: string; channels: number }>;
    packets?: Array<{ size: string }>;
  };
  const duration = Number(parsed.format.duration);
  const bytes = (parsed.packets ?? []).reduce((n, p) => n + Number(p.size), 0);
  return {
    duration,
    sampleRate: Number(parsed.streams[0].sample_rate),
    channels: parsed.streams[0].channels,
    payloadKbps: (bytes * 8) / duration / 1000,
  };
}

/**
 * What "the bitrate is honoured" means for a lossy target: the audio is not above the request,
 * give or take an encoder's average-bitrate overshoot on a one-second clip (a quarter, plus 4 kbit/s
 * of Vorbis's floor at 8 kHz). Without the plan's resampling an 8 kbit/s request on 44.1 kHz stereo
 * came out at 20–32 kbit/s, far outside this.
 */
export function withinBitrate(payloadKbps: number, requested: number): boolean {
  return payloadKbps <= requested * 1.25 + 4;
}

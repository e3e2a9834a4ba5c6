import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FORMATS } from '../../services/transcoder/src/ffmpeg/formats';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-media-'));

/**
 * Writes `file` in `format` with ffmpeg from a lavfi `source` (a sine tone, pink noise), `extra`
 * output arguments before the format's own, and `bitrate` (kbit/s) where the format takes one.
 */
function writeLavfi(file: string, format: string, source: string, extra: string[] = [], bitrate?: number): void {
  const spec = FORMATS[format];
  if (!spec) throw new Error(`unknown format ${format}`);
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, ...extra, ...spec.output];
  if (bitrate && spec.bitrate) args.push('-b:a', `${bitrate}k`);
  execFileSync('ffmpeg', [...args, file]);
}

/** Writes a sine tone of `seconds` at `frequency` Hz to `file` in `format`. */
function writeSine(file: string, format: string, seconds: number, frequency: number, bitrate?: number): void {
  writeLavfi(file, format, `sine=frequency=${frequency}:sample_rate=16000:duration=${seconds}`, [], bitrate);
}

/**
 * A tiny real audio file made by ffmpeg at test time: a sine tone of `seconds` in `format`
 * (any format of docs/interface-notes.md, Transcoding targets and bitrates), returned as bytes.
 */
export function tone(format: string, seconds = 1, opts: { bitrate?: number } = {}): Buffer {
  const file = path.join(dir, `tone-${seconds}-${opts.bitrate ?? 0}.${format}`);
  if (!fs.existsSync(file)) writeSine(file, format, seconds, 440, opts.bitrate);
  return fs.readFileSync(file);
}

/**
 * A WAV tone no other test makes: its frequency is drawn at random (300–1300 Hz), so its bytes, and
 * those of anything transcoded from it, can be searched for in a store other tests also write to.
 */
export function uniqueTone(seconds: number): Buffer {
  const frequency = (300 + Math.random() * 1000).toFixed(3);
  const file = path.join(dir, `unique-${process.pid}-${frequency}.wav`);
  writeSine(file, 'wav', seconds, Number(frequency));
  return fs.readFileSync(file);
}

/**
 * A real audio file of `seconds` at a chosen sample rate and channel count (pink noise, fixed seed,
 * so lossy encoders spend the bits they are given), in `format` (a stored audio format, or mp4).
 */
export function noise(
  format: string,
  opts: { seconds: number; sampleRate: number; channels: number; bitrate?: number },
): Buffer {
  const file = path.join(
    dir,
    `noise-${opts.seconds}-${opts.sampleRate}-${opts.channels}-${opts.bitrate ?? 0}.${format}`,
  );
  if (!fs.existsSync(file))
    writeLavfi(
      file,
      format,
      `anoisesrc=color=pink:amplitude=0.25:seed=7:sample_rate=${opts.sampleRate}:duration=${opts.seconds}`,
      ['-ac', String(opts.channels)],
      opts.bitrate,
    );
  return fs.readFileSync(file);
}

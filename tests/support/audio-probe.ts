import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type request from 'supertest';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-audio-probe-'));
/** Headerless formats need their input format named, or ffprobe reads their duration wrong. */
const FFPROBE_INPUT: Record<string, string[]> = {
  al: ['-f', 'alaw', '-sample_rate', '8000'],
  alaw: ['-f', 'alaw', '-sample_rate', '8000'],
  ul: ['-f', 'mulaw', '-sample_rate', '8000'],
  ulaw: ['-f', 'mulaw', '-sample_rate', '8000'],
  g722: ['-f', 'g722'],
};

/** Duration in seconds of audio bytes in `format`, by ffprobe (throws when not decodable). */
export function durationOf(bytes: Buffer, format: string): number {
  const file = path.join(scratch, `probe-${Math.random().toString(36).slice(2)}.${format}`);
  fs.writeFileSync(file, bytes);
  try {
    const out = execFileSync(
      'ffprobe',
      ['-v', 'error', ...(FFPROBE_INPUT[format] ?? []), '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
      { encoding: 'utf8' },
    );
    return Number(out.trim());
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** A supertest request whose body is kept as raw bytes, whatever its content type. */
export function binary(r: request.Test): request.Test {
  return r.buffer(true).parse((res, cb) => {
    const c: Buffer[] = [];
    res.on('data', (b: Buffer) => c.push(b));
    res.on('end', () => cb(null, Buffer.concat(c)));
  });
}

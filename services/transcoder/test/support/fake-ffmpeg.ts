import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes an executable `ffmpeg` into `dir` that is the system's ffmpeg in every way except that
 * `-encoders` leaves out `hide` — a build without those codecs, as a test needs one. Returns its path.
 */
export function ffmpegWithout(dir: string, hide: string[], real = '/usr/bin/ffmpeg'): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'ffmpeg');
  const filter = hide.map((e) => `-e ' ${e} '`).join(' ');
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      `if [ "$2" = "-encoders" ]; then ${real} "$@" | grep -v ${filter}; exit 0; fi`,
      `exec ${real} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return file;
}

/** Writes a file called `name` into `dir` that exists but cannot run (`mode` 0644, or a broken interpreter). */
export function brokenBinary(dir: string, name: string, how: 'not-executable' | 'fails'): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    how === 'fails'
      ? '#!/bin/sh\necho "error while loading shared libraries: libavdevice.so.59" >&2\nexit 127\n'
      : 'not a program\n',
    { mode: how === 'fails' ? 0o755 : 0o644 },
  );
  return file;
}

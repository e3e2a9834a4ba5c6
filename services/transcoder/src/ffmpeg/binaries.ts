import { execFileSync } from 'node:child_process';

/** ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH, else whatever is on PATH (Debian's package). */
export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH || 'ffmpeg';
}

export function ffprobePath(): string {
  return process.env.FFPROBE_PATH || 'ffprobe';
}

/** Fails start-up clearly when ffmpeg is missing, instead of at the first job. */
export function checkBinaries(): string {
  try {
    const out = execFileSync(ffmpegPath(), ['-hide_banner', '-version'], { encoding: 'utf8' });
    execFileSync(ffprobePath(), ['-hide_banner', '-version'], { encoding: 'utf8' });
    return out.split('\n')[0];
  } catch (err) {
    throw new Error(`ffmpeg/ffprobe not found (install Debian's ffmpeg, or set FFMPEG_PATH and FFPROBE_PATH): ${(err as Error).message}`);
  }
}

/**
 * The ffmpeg and ffprobe this process runs, chosen once at start-up (toolkit.ts: FFMPEG_PATH /
 * FFPROBE_PATH, then PATH, then the optional npm packages). One process has one pair: every
 * transcoder started in it resolves the same settings to the same binaries. Until a choice is
 * made, the names are looked up on PATH by the OS, as before.
 */
const chosen = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

/** Records the binaries found at start-up (a null keeps the plain name: runs then fail as "spawn"). */
export function useBinaries(found: { ffmpeg: string | null; ffprobe: string | null }): void {
  chosen.ffmpeg = found.ffmpeg ?? 'ffmpeg';
  chosen.ffprobe = found.ffprobe ?? 'ffprobe';
}

export function ffmpegPath(): string {
  return chosen.ffmpeg;
}

export function ffprobePath(): string {
  return chosen.ffprobe;
}

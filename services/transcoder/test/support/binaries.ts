import type { BinarySettings } from '../../src/ffmpeg/candidates';

/** The system's ffmpeg and ffprobe (Debian's, on PATH), as the tests run them; never the npm builds. */
export function systemBinaries(): BinarySettings {
  return { searchPath: process.env.PATH ?? '', npm: false };
}

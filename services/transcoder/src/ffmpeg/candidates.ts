import fs from 'node:fs';
import path from 'node:path';

/** Where to look for ffmpeg and ffprobe (TranscoderSettings.binaries). */
export interface BinarySettings {
  /** FFMPEG_PATH / FFPROBE_PATH: tried first when set. */
  ffmpegPath?: string;
  ffprobePath?: string;
  /** The search path (PATH) the system's binaries are looked up on. */
  searchPath: string;
  /** Whether the static builds of the optional npm packages may be used last. */
  npm: boolean;
}

export type Tool = 'ffmpeg' | 'ffprobe';

/** One place a binary may come from, in the order they are tried. */
export interface Candidate {
  /** `FFMPEG_PATH`, `PATH` or the npm package's name: what the logs and errors call it. */
  source: string;
  path: string;
}

/** The candidates of `tool` in resolution order, and why the absent ones are absent (for errors). */
export interface Candidates {
  found: Candidate[];
  absent: string[];
}

const ENV_NAME: Record<Tool, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };
const NPM_SCOPE: Record<Tool, string> = { ffmpeg: '@ffmpeg-installer', ffprobe: '@ffprobe-installer' };

/** The npm package that ships `tool` for this platform (only linux-x64 is a dependency). */
export function npmPackageOf(tool: Tool): string {
  return `${NPM_SCOPE[tool]}/${process.platform}-${process.arch}`;
}

/** The first executable file called `name` on `searchPath`, like a shell finds it; null when none. */
export function findOnPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** The binary inside the npm package of `tool`, when that package is installed. */
function npmBinary(tool: Tool): string | null {
  try {
    const manifest = require.resolve(`${npmPackageOf(tool)}/package.json`);
    return path.join(path.dirname(manifest), process.platform === 'win32' ? `${tool}.exe` : tool);
  } catch {
    return null;
  }
}

/**
 * Where `tool` may come from, in the order of the README: the path the operator set, then the
 * system's (PATH: Debian's package, recommended for production), then the static build of the
 * optional npm package (a bare machine). Only existence is checked here; whether each runs, and
 * has the codecs, is inspect.ts's job.
 */
export function candidatesOf(tool: Tool, s: BinarySettings): Candidates {
  const found: Candidate[] = [];
  const absent: string[] = [];
  const given = tool === 'ffmpeg' ? s.ffmpegPath : s.ffprobePath;
  if (given) found.push({ source: ENV_NAME[tool], path: given });
  else absent.push(`${ENV_NAME[tool]} is not set`);
  const onPath = findOnPath(tool, s.searchPath);
  if (onPath) found.push({ source: 'PATH', path: onPath });
  else absent.push(`no ${tool} on PATH`);
  const pkg = npmPackageOf(tool);
  const bundled = s.npm ? npmBinary(tool) : null;
  if (bundled) found.push({ source: pkg, path: bundled });
  else absent.push(s.npm ? `${pkg} is not installed` : `${pkg} is not used (TRANSCODER_NPM_FFMPEG=false)`);
  return { found, absent };
}

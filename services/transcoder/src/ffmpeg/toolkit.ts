import { FORMATS, encoderOf } from './formats';
import { candidatesOf, type BinarySettings, type Tool } from './candidates';
import { inspect, type Inspected, type Rejected } from './inspect';

/** Every encoder some target needs (pcm_alaw, pcm_mulaw, g722, flac, libmp3lame, libvorbis, pcm_s16le, aac). */
export const REQUIRED_ENCODERS: readonly string[] = [...new Set(Object.values(FORMATS).map(encoderOf))];

/** How one tool was resolved: the binary chosen (null: none works) and what was passed over, and why. */
export interface Resolution {
  chosen: Inspected | null;
  /** Encoders the chosen ffmpeg lacks (targets needing them cannot be written). */
  missing: string[];
  /** Candidates passed over, or absent, in words: `/usr/bin/ffmpeg does not exist`, `FFMPEG_PATH is not set`. */
  passedOver: string[];
}

const isInspected = (r: Inspected | Rejected): r is Inspected => !('reason' in r);

/**
 * Tries the candidates of `tool` in order (candidates.ts) and takes the first that runs and, for
 * ffmpeg, has every encoder Patchbay writes with. When none has them all, the first that runs is
 * taken anyway: the targets it can write still work, the others are refused by name. Candidates
 * after the chosen one are not run.
 */
export async function resolveTool(tool: Tool, settings: BinarySettings): Promise<Resolution> {
  const { found, absent } = candidatesOf(tool, settings);
  const passedOver: string[] = [];
  let partial: { chosen: Inspected; missing: string[] } | null = null;
  for (const candidate of found) {
    const r = await inspect(tool, candidate);
    if (!isInspected(r)) {
      passedOver.push(`${r.path} (${r.source}) ${r.reason}`);
      continue;
    }
    const missing = tool === 'ffmpeg' ? REQUIRED_ENCODERS.filter((e) => !r.encoders.has(e)) : [];
    if (missing.length === 0) return { chosen: r, missing, passedOver: [...passedOver, ...absent] };
    passedOver.push(`${r.path} (${r.source}) lacks the encoders ${missing.join(', ')}`);
    partial ??= { chosen: r, missing };
  }
  return { chosen: partial?.chosen ?? null, missing: partial?.missing ?? [], passedOver: [...passedOver, ...absent] };
}

/**
 * What this transcoder can do with the binaries it found. Each question answers `null` (it can)
 * or the missing piece in words, for the 503 a client gets and for the start-up log.
 */
export class Toolkit {
  constructor(
    readonly ffmpeg: Resolution,
    readonly ffprobe: Resolution,
  ) {}

  static async resolve(settings: BinarySettings): Promise<Toolkit> {
    const [ffmpeg, ffprobe] = await Promise.all([resolveTool('ffmpeg', settings), resolveTool('ffprobe', settings)]);
    return new Toolkit(ffmpeg, ffprobe);
  }

  /** Why media cannot be probed here (no ffprobe), or null. */
  cannotProbe(): string | null {
    return this.ffprobe.chosen ? null : `no working ffprobe: ${this.ffprobe.passedOver.join('; ')}`;
  }

  /** Why `target` cannot be written here (no ffmpeg, no ffprobe, or no encoder for it), or null. */
  cannotWrite(target: string): string | null {
    const spec = FORMATS[target];
    if (!this.ffmpeg.chosen) return `no working ffmpeg: ${this.ffmpeg.passedOver.join('; ')}`;
    if (spec && this.ffmpeg.missing.includes(encoderOf(spec))) {
      return `the ffmpeg at ${this.ffmpeg.chosen.path} has no ${encoderOf(spec)} encoder, which ${target} needs`;
    }
    return this.cannotProbe();
  }

  /** Whether everything works: both binaries, every encoder. */
  complete(): boolean {
    return this.ffmpeg.chosen !== null && this.ffmpeg.missing.length === 0 && this.ffprobe.chosen !== null;
  }

  /** Whether any target can be written (else upload-time jobs are left in their queue). */
  canTranscode(): boolean {
    return Object.keys(FORMATS).some((t) => this.cannotWrite(t) === null);
  }

  /** The start-up log's view: which binary, which version, from where, and what is missing. */
  describe(): Record<string, unknown> {
    const one = (r: Resolution) =>
      r.chosen ? { path: r.chosen.path, version: r.chosen.version, source: r.chosen.source } : null;
    return { ffmpeg: one(this.ffmpeg), ffprobe: one(this.ffprobe), missing_encoders: this.ffmpeg.missing };
  }
}

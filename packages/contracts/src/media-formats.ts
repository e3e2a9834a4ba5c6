/**
 * The media formats of docs/interface-notes.md (Transcoding targets and bitrates), once: the name a
 * format goes by (`content_format`, `desired_format`, `f=`, `content_type=`, and the file
 * extension), its mime type, how ffmpeg must be told to read it, whether it is a target only, and
 * whether a bitrate changes it. Headerless telephony formats (al/alaw, ul/ulaw, g722) carry no
 * header, so their input format is named to ffmpeg; the others are probed. The transcoder keeps
 * only how each is written (encoder).
 */
export interface MediaFormat {
  /** The format's name and file extension. */
  extension: string;
  /** The Content-Type it is served with. */
  mime: string;
  /** ffmpeg arguments placed before `-i` when reading a file of this format. */
  input: readonly string[];
  /** True when files are only ever written in it (never accepted as a stored audio format). */
  targetOnly: boolean;
  /** True when a bitrate (`-b:a`, `br=`, `desired_bitrate`) changes it: the lossy compressed targets. */
  bitrate: boolean;
  /**
   * True when it plays whole as written to a pipe while it is encoded: a download-time copy in it is
   * then sent as ffmpeg writes it, and stored as streamed (decisions §53). Not wav, flac and mp4:
   * their header needs what only the end knows (sizes, totals, the moov atom).
   */
  streams: boolean;
  /** Mime types that name this format when nothing else (name, content) does. */
  fromMime?: readonly string[];
}

const ALAW_INPUT = ['-f', 'alaw', '-ar', '8000', '-ac', '1'] as const;
const ULAW_INPUT = ['-f', 'mulaw', '-ar', '8000', '-ac', '1'] as const;

/** In the order the interface notes list them (error messages name them in this order). */
export const MEDIA_FORMATS = [
  { extension: 'al', mime: 'audio/basic', input: ALAW_INPUT, targetOnly: false, streams: true, bitrate: false },
  { extension: 'alaw', mime: 'audio/basic', input: ALAW_INPUT, targetOnly: false, streams: true, bitrate: false },
  { extension: 'flac', mime: 'audio/flac', input: [], targetOnly: false, streams: false, bitrate: false },
  {
    extension: 'g722',
    mime: 'audio/G722',
    input: ['-f', 'g722'],
    targetOnly: false,
    streams: true,
    bitrate: false,
    fromMime: ['audio/G722'],
  },
  {
    extension: 'mp3',
    mime: 'audio/mpeg',
    input: [],
    targetOnly: false,
    streams: true,
    bitrate: true,
    fromMime: ['audio/mpeg'],
  },
  { extension: 'ogg', mime: 'audio/ogg', input: [], targetOnly: false, streams: true, bitrate: true },
  {
    extension: 'ul',
    mime: 'audio/basic',
    input: ULAW_INPUT,
    targetOnly: false,
    streams: true,
    bitrate: false,
    fromMime: ['audio/basic'],
  },
  { extension: 'ulaw', mime: 'audio/basic', input: ULAW_INPUT, targetOnly: false, streams: true, bitrate: false },
  {
    extension: 'wav',
    mime: 'audio/x-wav',
    input: [],
    targetOnly: false,
    streams: false,
    bitrate: false,
    fromMime: ['audio/x-wav', 'audio/wav'],
  },
  { extension: 'mp4', mime: 'video/mp4', input: [], targetOnly: true, streams: false, bitrate: true },
] as const satisfies readonly MediaFormat[];

type Entry = (typeof MEDIA_FORMATS)[number];
/** Every format a file can be written in. */
export type TargetFormat = Entry['extension'];
/** The formats a stored audio file can be in. */
export type AudioFormat = Extract<Entry, { targetOnly: false }>['extension'];

const names = <E extends Entry>(keep: (e: Entry) => e is E) =>
  MEDIA_FORMATS.filter(keep).map((e): E['extension'] => e.extension);

/** Stored audio formats (not target-only). */
export const AUDIO_FORMATS: readonly AudioFormat[] = names(
  (e): e is Extract<Entry, { targetOnly: false }> => !e.targetOnly,
);
/** Whether a download-time copy in `format` is sent as ffmpeg writes it (decisions §53). */
export const streamsWhileEncoded = (format: string): boolean =>
  MEDIA_FORMATS.some((f) => f.extension === format && f.streams);
/** Every target of a transcoding: the audio formats, then the target-only ones. */
export const TARGET_FORMATS: readonly TargetFormat[] = [
  ...AUDIO_FORMATS,
  ...names((e): e is Extract<Entry, { targetOnly: true }> => e.targetOnly),
];
/** Targets whose size a bitrate changes (lossy, compressed); the others have a fixed or lossless rate. */
export const BITRATE_FORMATS: readonly TargetFormat[] = names((e): e is Extract<Entry, { bitrate: true }> => e.bitrate);

const BY_NAME = new Map<string, MediaFormat>(MEDIA_FORMATS.map((e) => [e.extension, e]));

/** The format of this name (case as given), or undefined. */
export function mediaFormat(name: string | null | undefined): MediaFormat | undefined {
  return name ? BY_NAME.get(name) : undefined;
}

/** True for a known target format name. */
export function isTargetFormat(name: string): name is TargetFormat {
  return BY_NAME.has(name);
}

/** The mime type of a format name, or undefined for an unknown one. */
export function mimeOfFormat(name: string | null | undefined): string | undefined {
  return mediaFormat(name)?.mime;
}

/** ffmpeg input arguments for a stored file by its `content_format` (raw formats need them; others are probed). */
export function ffmpegInputArgs(name: string | null | undefined): string[] {
  return [...(mediaFormat(name)?.input ?? [])];
}

/** The format a mime type alone names, when it names one (audio/basic → ul), else undefined. */
export function formatOfMime(mime: string): TargetFormat | undefined {
  return MEDIA_FORMATS.find((e) => 'fromMime' in e && (e.fromMime as readonly string[]).includes(mime))?.extension;
}

/** "al/alaw/ul/ulaw audio/basic, flac audio/flac, …": the table in words, for documentation. */
export function describeMediaMimes(): string {
  const byMime = new Map<string, string[]>();
  for (const e of MEDIA_FORMATS) byMime.set(e.mime, [...(byMime.get(e.mime) ?? []), e.extension]);
  return [...byMime]
    .map(([mime, exts]) => [exts.join('/'), mime] as const)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([e, m]) => `${e} ${m}`)
    .join(', ');
}

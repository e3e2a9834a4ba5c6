import mime from 'mime-types';
import { formatOfMime, mediaFormat, type Classification } from '@patchbay/contracts';

/**
 * Content sniffing from the first bytes of a file: a small magic-bytes table (file-type is
 * ESM-only and says nothing for text or headerless audio). Returns the mime type and the format
 * name it proves, or undefined.
 */
const MAGIC: Array<{ test: (b: Buffer) => boolean; mime: string; format: string }> = [
  { test: (b) => b.subarray(0, 4).toString('latin1') === 'PK\x03\x04', mime: 'application/zip', format: 'zip' },
  { test: (b) => b[0] === 0x1f && b[1] === 0x8b, mime: 'application/gzip', format: 'gz' },
  { test: (b) => b.subarray(257, 262).toString('latin1') === 'ustar', mime: 'application/x-tar', format: 'tar' },
  { test: (b) => b.subarray(0, 4).toString('latin1') === 'Rar!', mime: 'application/vnd.rar', format: 'rar' },
  {
    test: (b) => b.subarray(0, 6).equals(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])),
    mime: 'application/x-7z-compressed',
    format: '7z',
  },
  { test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-', mime: 'application/pdf', format: 'pdf' },
  {
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])),
    mime: 'application/x-ole-storage',
    format: 'ole',
  },
  { test: (b) => b.subarray(0, 4).toString('latin1') === '\x7fELF', mime: 'application/x-executable', format: 'elf' },
  { test: (b) => b.subarray(0, 2).toString('latin1') === 'MZ', mime: 'application/x-msdownload', format: 'exe' },
  {
    test: (b) =>
      [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(b.length >= 4 ? b.readUInt32BE(0) : -1),
    mime: 'application/x-mach-binary',
    format: 'macho',
  },
  { test: (b) => b.subarray(0, 2).toString('latin1') === '#!', mime: 'text/x-shellscript', format: 'sh' },
  { test: (b) => b.subarray(0, 4).toString('latin1') === 'fLaC', mime: 'audio/flac', format: 'flac' },
  { test: (b) => b.subarray(0, 4).toString('latin1') === 'OggS', mime: 'audio/ogg', format: 'ogg' },
  {
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WAVE',
    mime: 'audio/x-wav',
    format: 'wav',
  },
  {
    test: (b) =>
      b.subarray(0, 3).toString('latin1') === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && (b[1] & 0x06) !== 0),
    mime: 'audio/mpeg',
    format: 'mp3',
  },
  { test: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp', mime: 'video/mp4', format: 'mp4' },
  {
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    mime: 'image/png',
    format: 'png',
  },
  { test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, mime: 'image/jpeg', format: 'jpg' },
  { test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8', mime: 'image/gif', format: 'gif' },
];

export function sniff(head: Buffer): { mime: string; format: string } | undefined {
  if (head.length === 0) return undefined;
  const hit = MAGIC.find((m) => m.test(head));
  return hit ? { mime: hit.mime, format: hit.format } : undefined;
}

/** The stored audio formats' own mime types (headerless telephony audio the magic table cannot see among them). */
function audioMime(ext: string): string | undefined {
  const format = mediaFormat(ext);
  return format && !format.targetOnly ? format.mime : undefined;
}

export function extensionOf(name: string | undefined): string | undefined {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name ?? '');
  return m ? m[1].toLowerCase() : undefined;
}

/** mime type from a file name: telephony audio first, then the mime-db table. */
export function mimeFromName(name: string | undefined): string | undefined {
  const ext = extensionOf(name);
  if (!ext) return undefined;
  return audioMime(ext) ?? (mime.lookup(ext) || undefined);
}

/** The extension a mime type names: the media formats' own first (audio/basic → ul), then mime-db's. */
export function extensionForMime(type: string): string | undefined {
  return formatOfMime(type) ?? (mime.extension(type) || undefined);
}

const ARCHIVE_MIMES = new Set([
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/x-7z-compressed',
  'application/x-bzip2',
  'application/x-xz',
  'application/java-archive',
]);
const EXECUTABLE_MIMES = new Set([
  'application/x-executable',
  'application/x-msdownload',
  'application/x-mach-binary',
  'application/x-sh',
  'text/x-shellscript',
  'application/x-elf',
  'application/vnd.microsoft.portable-executable',
  'application/x-msdos-program',
]);
const EXECUTABLE_EXTS = new Set([
  'exe',
  'dll',
  'msi',
  'bat',
  'cmd',
  'com',
  'sh',
  'bin',
  'elf',
  'so',
  'dylib',
  'app',
  'apk',
  'jar',
  'ps1',
]);
const ARCHIVE_EXTS = new Set(['zip', 'gz', 'tgz', 'tar', 'rar', '7z', 'bz2', 'xz']);
const DOCUMENT_MIMES = /^(text\/|application\/(pdf|msword|rtf|json|xml|x-ole-storage|vnd\.(openxmlformats|ms-|oasis)))/;

/**
 * The classification of a file from what is known about it, strongest evidence first: the sniffed
 * content, then the extension, then the mime type. Executables win over everything (a renamed .exe
 * is still an executable).
 */
export function classify(input: { sniffedMime?: string; name?: string; mimeType?: string }): Classification {
  const ext = extensionOf(input.name);
  const candidates = [input.sniffedMime, ext ? mimeFromName(input.name) : undefined, input.mimeType].filter(
    (m): m is string => !!m,
  );
  if ((input.sniffedMime && EXECUTABLE_MIMES.has(input.sniffedMime)) || (ext && EXECUTABLE_EXTS.has(ext)))
    return 'executable';
  for (const m of candidates) {
    if (EXECUTABLE_MIMES.has(m)) return 'executable';
    if (ARCHIVE_MIMES.has(m)) return 'archive';
    if (/^(audio|video|image)\//.test(m)) return 'media';
    if (DOCUMENT_MIMES.test(m)) return 'document';
  }
  if (ext && ARCHIVE_EXTS.has(ext)) return 'archive';
  return 'unknown';
}

/** The format name stored in `content_format`: sniffed, else the extension, else from the mime type. */
export function contentFormat(input: { sniffedFormat?: string; name?: string; mimeType?: string }): string | null {
  return (
    input.sniffedFormat ??
    extensionOf(input.name) ??
    (input.mimeType ? (extensionForMime(input.mimeType) ?? null) : null)
  );
}

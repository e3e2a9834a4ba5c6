import {
  BadRequestError,
  BITRATES,
  CACHE_CONTROL_PATTERN,
  CACHE_HEADERS_PATTERN,
  isTargetFormat,
  mimeOfFormat,
  TARGET_FORMATS,
} from '@patchbay/contracts';

const CACHE_CONTROL = new RegExp(CACHE_CONTROL_PATTERN);
const CACHE_HEADERS = new RegExp(CACHE_HEADERS_PATTERN);

export interface DownloadOptions {
  disposition: 'inline' | 'attachment';
  dispositionName: string | null;
  contentType: string | null;
  cacheControl: string;
  format: string | null;
  bitrate: number | null;
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw BadRequestError.field(name, `${name} must be given once`);
  return v;
}

/**
 * Reads the public file server's query parameters (docs/interface-notes.md, File server and
 * ranges): every invalid value is a 400 naming the parameter. `cache_headers` wins over
 * `cache_control`; with neither the header is literally `None`, as the compatible server sends it.
 */
export function parseDownloadOptions(query: Record<string, unknown>): DownloadOptions {
  const disposition = single(query, 'disposition') ?? 'inline';
  if (disposition !== 'inline' && disposition !== 'attachment')
    throw BadRequestError.field('disposition', 'disposition must be inline or attachment');
  const dispositionName = single(query, 'disposition_name') ?? null;
  if (dispositionName !== null && dispositionName.length === 0)
    throw BadRequestError.field('disposition_name', 'disposition_name must not be empty');
  const ct = single(query, 'content_type');
  // `content_type` names a format and sets its mime type (docs/interface-notes.md, Transcoding targets and bitrates).
  if (ct !== undefined && !isTargetFormat(ct))
    throw BadRequestError.field('content_type', `content_type must be one of ${TARGET_FORMATS.join(', ')}`);
  const cacheHeaders = single(query, 'cache_headers');
  const cacheControl = single(query, 'cache_control');
  let cache = 'None';
  if (cacheControl !== undefined) {
    if (!CACHE_CONTROL.test(cacheControl))
      throw BadRequestError.field('cache_control', 'cache_control is not one of the accepted directives');
    cache = cacheControl;
  }
  if (cacheHeaders !== undefined) {
    if (cacheHeaders === 'no') cache = 'no-cache';
    else if (CACHE_HEADERS.test(cacheHeaders)) cache = `public, max-age=${Number(cacheHeaders)}`;
    else throw BadRequestError.field('cache_headers', 'cache_headers must be no or a number of seconds');
  }
  const f = single(query, 'f');
  if (f !== undefined && !isTargetFormat(f))
    throw BadRequestError.field('f', `f must be one of ${TARGET_FORMATS.join(', ')}`);
  const br = single(query, 'br');
  if (br !== undefined && !(BITRATES as readonly number[]).includes(Number(br)))
    throw BadRequestError.field('br', `br must be one of ${BITRATES.join(', ')}`);
  return {
    disposition,
    dispositionName,
    contentType: mimeOfFormat(ct) ?? null,
    cacheControl: cache,
    format: f ?? null,
    bitrate: br !== undefined ? Number(br) : null,
  };
}

/** `<type>` or `<type>; filename*=UTF-8''<name>` with the name percent-encoded (RFC 5987). */
export function contentDisposition(type: string, name: string | null): string {
  if (!name) return type;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename*=UTF-8''${encoded}`;
}

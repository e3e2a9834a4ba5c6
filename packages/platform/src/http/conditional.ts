import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A strong entity tag for stored bytes that change only when `parts` change (for a file: its SID,
 * blob key, size and when its bytes last changed): the same bytes always get the same tag, new
 * bytes a new one.
 */
export function strongEtag(...parts: Array<string | number>): string {
  return `"${createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32)}"`;
}

/** The tags of an If-None-Match or If-Range list, `W/` dropped (If-None-Match compares weakly). */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter((t) => t !== '');
}

/**
 * Whether a GET or HEAD can be answered 304 Not Modified (RFC 9110 §13.1.2, §13.1.3, §13.2.2):
 * If-None-Match when present (`*` or a tag that matches, weakly); otherwise If-Modified-Since at or
 * after Last-Modified (HTTP dates have whole seconds). A malformed date is ignored.
 */
export function notModified(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  etag: string | undefined,
  lastModified: string,
): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const inm = headers['if-none-match'];
  if (typeof inm === 'string') {
    if (!etag) return false;
    const tags = tagsOf(inm);
    return tags.includes('*') || tags.includes(etag);
  }
  const ims = headers['if-modified-since'];
  if (typeof ims !== 'string') return false;
  const since = Date.parse(ims);
  const modified = Date.parse(lastModified);
  return Number.isFinite(since) && Number.isFinite(modified) && Math.floor(modified / 1000) <= Math.floor(since / 1000);
}

/** An If-Range value that names this representation: its Last-Modified date, or its strong tag. */
export function ifRangeMatches(ifRange: string, etag: string | undefined, lastModified: string): boolean {
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return etag !== undefined && v === etag;
  return v === lastModified;
}

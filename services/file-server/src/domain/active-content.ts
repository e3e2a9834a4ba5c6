/**
 * Active content on the public file server (docs/security.md, "Active content").
 * Every file is a partner's upload, served on the file server's own origin: a browser must never run
 * it there. So every reply carries `X-Content-Type-Options: nosniff` (the browser takes the
 * Content-Type as given, never guesses HTML from the bytes) and FILE_CSP (a sandboxed document: no
 * script, no form, a unique origin), and a type a browser would render as a document of its own
 * (HTML, SVG, XML, JavaScript, anything not plainly passive) is sent as an attachment whatever
 * `disposition` asked.
 */

/**
 * `sandbox` without `allow-scripts`: nothing runs, and the document gets an opaque origin. The rest
 * is what a browser's own viewer of a passive file needs when someone opens its URL directly
 * (Chromium's media document plays the file again as a media request, its image document uses an
 * inline style); a page that embeds the file (`<audio>`, `<img>`) is not governed by this policy.
 */
export const FILE_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** Sent with every reply of the file server, JSON errors included. */
export const ACTIVE_CONTENT_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': FILE_CSP,
} as const;

/**
 * Whether a browser shows this Content-Type as passive content: audio, video, images other than
 * SVG (an XML document that can hold script), plain text and PDF (shown by the browser's own
 * viewer, never with the origin's scripting). Everything else — HTML, SVG, XML, JavaScript, JSON,
 * `application/octet-stream`, an unparsable type — is served as an attachment.
 */
export function isPassiveType(contentType: string): boolean {
  const essence = contentType.split(';')[0].trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0) return false;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (subtype.includes('xml') || subtype.includes('svg')) return false;
  if (type === 'audio' || type === 'video' || type === 'image') return true;
  return essence === 'text/plain' || essence === 'application/pdf';
}

/** The disposition actually sent: what the request asked for a passive type, `attachment` for any other. */
export function effectiveDisposition(asked: 'inline' | 'attachment', contentType: string): 'inline' | 'attachment' {
  return isPassiveType(contentType) ? asked : 'attachment';
}

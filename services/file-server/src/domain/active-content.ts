/**
 * Active content on the public file server (docs/security.md, "Active content").
 * Every file is a partner's upload, served on the file server's own origin: a browser must never run
 * it there. So every reply carries `X-Content-Type-Options: nosniff` (the browser takes the
 * Content-Type as given, never guesses HTML from the bytes) and FILE_CSP (a sandboxed document: no
 * script, no form, a unique origin), and a type a browser would render as a document of its own
 * (HTML, SVG, XML, JavaScript) is sent as an attachment whatever `disposition` asked; every other
 * type as asked.
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

/** Subtypes a browser renders as a document of its own, or runs: markup, XML (SVG is XML), script. */
const DOCUMENT_SUBTYPE = /html|xml|xsl|svg|javascript|ecmascript|jscript|livescript/;

/**
 * Whether a browser would render this Content-Type as a document of its own on the file server's
 * origin: HTML, XHTML, XML and anything `+xml` (SVG included), XSL, JavaScript and its aliases,
 * `multipart/*` (`x-mixed-replace` renders its HTML parts), and an unparsable type (what a browser
 * makes of it is anyone's guess). Everything else — audio, video, images, text, PDF, JSON,
 * `application/octet-stream` — is passive under nosniff and the sandbox policy.
 */
export function rendersAsDocument(contentType: string): boolean {
  const essence = contentType.split(';')[0].trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1) return true;
  const type = essence.slice(0, slash);
  return type === 'multipart' || DOCUMENT_SUBTYPE.test(essence.slice(slash + 1));
}

/**
 * The disposition actually sent: `attachment` for a type a browser would render as a document,
 * whatever was asked; any other type gets what the request asked for (inline by default), as
 * docs/interface-notes.md says of `disposition`.
 */
export function effectiveDisposition(asked: 'inline' | 'attachment', contentType: string): 'inline' | 'attachment' {
  return rendersAsDocument(contentType) ? 'attachment' : asked;
}

/**
 * Cross-origin reads of public files (docs/interface-notes.md, File server and ranges): any origin
 * may read a published file, as the interface's `Access-Control-Allow-Origin: *` says. A web player
 * on another origin sends `Range` (and conditional headers), which are not CORS-safelisted, so its
 * browser asks first with a preflight; the answers expose the headers a player reads.
 */

/** On every file reply (and given to nginx on the X-Accel-Redirect path). */
export const FILE_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  // The interface's value on file replies; the preflight allows HEAD too.
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Expose-Headers': 'Accept-Ranges, Content-Length, Content-Range, ETag',
} as const;

/**
 * The answer to a preflight (`OPTIONS` on `/f/<id>`): the same for every id, published or not, so
 * it never tells whether a file exists. Browsers keep it for a day (Chromium caps it at two hours).
 */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD',
  'Access-Control-Allow-Headers': 'Range, If-Range, If-None-Match, If-Modified-Since',
  'Access-Control-Max-Age': '86400',
} as const;

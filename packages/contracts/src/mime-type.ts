/**
 * A media type as a client may give it (`mime_type` of a File): `type/subtype` with optional
 * `; name=value` parameters, in printable ASCII only — it becomes a response header, so CR, LF,
 * NUL or anything outside ASCII would break every download of the file.
 */
export const MIME_TYPE_PATTERN =
  '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:[ ' +
  '\\t]*;[ ' +
  '\\t]*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\\\\\\x00-\\x1f\\x7f-\\uffff]*"))*$';

const VALID = new RegExp(MIME_TYPE_PATTERN);

/**
 * The Content-Type to send for a stored media type: itself when it is a valid one, else
 * `application/octet-stream` — a value stored before it was checked never breaks a response.
 */
export function safeContentType(mime: string | null | undefined): string {
  return typeof mime === 'string' && mime.length <= 255 && VALID.test(mime) ? mime : 'application/octet-stream';
}

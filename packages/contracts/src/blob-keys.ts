/**
 * The layout of blob keys, built and parsed here only (decisions §29, §34):
 * - `files/<partner_sid>/<file_sid>`: a file's bytes in Patchbay's own store;
 * - `<source key>.<format>[-<kbit/s>].<nonce>`: an upload-time transcoding result, next to its source
 *   (so in the same store, external or not);
 * - `cache/<file_sid>/<format>-<kbit/s|src>`: a download's transcoded copy (always in the own store);
 * - `ext/<store_id>/<key in that store>`: any of the above kept in an external container's store.
 * Keys of the own store never start with `ext/`. The key a file is written under is kept on its
 * record, so the store holding it is known for as long as the file lives.
 */

/** Where the own store's blobs live: what the orphan sweep lists. */
export const OWN_BLOB_PREFIXES = ['files/', 'cache/'] as const;

const EXTERNAL = /^ext\/([A-Za-z0-9._-]{1,200})\/(.+)$/;

/** `files/<partner_sid>/<file_sid>`: where a new file's bytes go. */
export function fileBlobKey(partnerSid: string, fileSid: string): string {
  return `files/${partnerSid}/${fileSid}`;
}

/** Where an upload-time transcoding of `sourceKey` to `target` is written (a nonce per attempt). */
export function transcodedBlobKey(
  sourceKey: string,
  target: string,
  bitrate: number | null | undefined,
  nonce: string,
): string {
  return `${sourceKey}.${target}${bitrate ? `-${bitrate}` : ''}.${nonce}`;
}

/** Where a download's transcoded copy of a file for (format, bitrate) is kept; deleted with the file. */
export function cacheBlobKey(fileSid: string, format: string, bitrate: number | null): string {
  return `${cachePrefixOf(fileSid)}${format}-${bitrate ?? 'src'}`;
}

/** The prefix of every cached copy of a file. */
export function cachePrefixOf(fileSid: string): string {
  return `cache/${fileSid}/`;
}

/** True when `key` is an upload-time transcoding result of `sourceKey` (transcodedBlobKey's form). */
export function isTranscodingOf(key: string, sourceKey: string): boolean {
  return key.startsWith(`${sourceKey}.`) && !key.slice(sourceKey.length + 1).includes('/');
}

/** `ext/<store_id>/<key>`: a key in an external container's store. */
export function externalBlobKey(storeId: string, key: string): string {
  return `ext/${storeId}/${key}`;
}

/** The store id and the key inside that store, or null for a key of Patchbay's own store. */
export function parseExternalBlobKey(key: string): { storeId: string; key: string } | null {
  const m = EXTERNAL.exec(key);
  return m ? { storeId: m[1], key: m[2] } : null;
}

export function isExternalBlobKey(key: string): boolean {
  return key.startsWith('ext/');
}

/**
 * The file a key belongs to: the sid after `cache/`, or the last segment of a `files/` key up to
 * its first dot (a transcoding result carries the source's name), inside `ext/<store_id>/` too.
 * Undefined for any other key.
 */
export function fileSidOfBlobKey(key: string): string | undefined {
  const inner = parseExternalBlobKey(key)?.key ?? key;
  const parts = inner.split('/');
  if (parts[0] === 'cache' && parts.length >= 3 && parts[1]) return parts[1];
  if (parts[0] === 'files' && parts.length === 3 && parts[2]) return parts[2].split('.')[0];
  return undefined;
}

/**
 * Blob keys of external containers: `ext/<store_id>/<key in that store>`. Every other key is in
 * Patchbay's own store, whose keys never start with `ext/` (files/…, cache/…). The key a file is
 * written under is kept on its record, so the store that holds a blob is known for as long as the
 * file lives, whatever later happens to its container's attributes.
 */
const EXTERNAL = /^ext\/([A-Za-z0-9._-]{1,200})\/(.+)$/;

export function externalKey(storeId: string, key: string): string {
  return `ext/${storeId}/${key}`;
}

/** The store id and the key inside that store, or null for a key of Patchbay's own store. */
export function parseExternalKey(key: string): { storeId: string; key: string } | null {
  const m = EXTERNAL.exec(key);
  return m ? { storeId: m[1], key: m[2] } : null;
}

export function isExternalKey(key: string): boolean {
  return key.startsWith('ext/');
}

import { assertKey } from './blob-checks';
import { BlobStoreUnavailableError } from './blob-store-unavailable-error';

/** The options of a remote blob store that cannot work: the constructor's error. */
function invalid(message: string): BlobStoreUnavailableError {
  return new BlobStoreUnavailableError({ reason: 'invalid_config', message });
}

/**
 * A remote store's key prefix as every adapter applies it: `''`, or `a/b/` (slashes around it
 * dropped); the prefix must itself be a valid key (blob-checks), else an `invalid_config` error.
 */
export function normalizeKeyPrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (p === '') return '';
  try {
    assertKey(p);
  } catch {
    throw invalid(`prefix '${p.slice(0, 100)}' is not a valid key prefix (segments of A-Z a-z 0-9 . _ -)`);
  }
  return `${p}/`;
}

/**
 * An endpoint option: an http(s) URL without credentials in it (they belong in `credentials`, where
 * they are encrypted and masked), and without a query unless `query` allows one. `invalid_config` otherwise.
 */
export function checkEndpointUrl(endpoint: string, opts: { query?: boolean; queryHint?: string } = {}): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid(`endpoint '${endpoint.slice(0, 200)}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(`endpoint '${url.origin}' is not an http or https URL`);
  if (url.username || url.password) throw invalid('endpoint must not contain credentials');
  if (url.search && !opts.query)
    throw invalid(`endpoint must not contain a query${opts.queryHint ? ` (${opts.queryHint})` : ''}`);
}

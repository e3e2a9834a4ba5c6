import { BlobStoreUnavailableError } from '@patchbay/platform';
import type { S3BlobStoreOptions } from './s3-options';

/**
 * Reads the URL form Patchbay's own blob store is configured with (e.g. `BLOB_STORE_URL`):
 *
 *   s3://<bucket>[/<prefix>][?endpoint=<http(s)://host:port>][&region=<region>]
 *
 * `endpoint` is URL-encoded or not (`?endpoint=http://127.0.0.1:9000` is accepted as written).
 * Credentials are not part of the URL: the caller reads them (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY) and adds them, since adapters never read the environment.
 * Throws BlobStoreUnavailableError('invalid_config') naming what is wrong.
 */
export function parseS3Url(url: string): Omit<S3BlobStoreOptions, 'credentials'> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid(`'${redact(url)}' is not a URL (expected s3://bucket/prefix?endpoint=…&region=…)`);
  }
  if (u.protocol !== 's3:') throw invalid(`'${redact(url)}' is not an s3:// URL`);
  if (u.username || u.password) throw invalid('an s3:// URL must not carry credentials: pass them separately');
  const bucket = u.hostname;
  if (!bucket) throw invalid(`'${redact(url)}' names no bucket`);
  for (const name of u.searchParams.keys()) {
    if (name !== 'endpoint' && name !== 'region')
      throw invalid(`unknown parameter '${name}' in s3:// URL (known: endpoint, region)`);
  }
  const prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, '');
  const endpoint = u.searchParams.get('endpoint') ?? undefined;
  const region = u.searchParams.get('region') ?? undefined;
  return { bucket, ...(prefix ? { prefix } : {}), ...(endpoint ? { endpoint } : {}), ...(region ? { region } : {}) };
}

/** A URL is quoted in a message without any user:password it might carry. */
function redact(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//***@').slice(0, 200);
}

function invalid(message: string): BlobStoreUnavailableError {
  return new BlobStoreUnavailableError({ reason: 'invalid_config', message });
}

import type { ExternalAttributes, ExternalStoreType } from '@patchbay/contracts';
import { BlobStoreUnavailableError, type BlobStore } from '@patchbay/platform';

/**
 * Limits for a partner's storage: a store that does not answer fails a request within seconds
 * (a 503, or the 422 of a create or update), never a hang. Streams already flowing are not cut.
 */
export interface ExternalStoreLimits {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  retries: number;
}

export const EXTERNAL_LIMITS: ExternalStoreLimits = { connectTimeoutMs: 3000, requestTimeoutMs: 15_000, retries: 1 };

/**
 * How a partner's store is opened: its limits, and whether it may reach loopback, private and other
 * non-public addresses (EXTERNAL_STORAGE_ALLOW_PRIVATE; off, the outbound-address guard refuses them
 * at every connection, however the endpoint is spelled and whatever its name resolves to).
 */
export interface ExternalStoreOptions extends ExternalStoreLimits {
  allowPrivateAddresses: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The blob store of an external container from its (opened) attributes. The adapter's SDK is
 * loaded here, on first use: a process that never touches a bucket never loads one. Options that
 * cannot work throw BlobStoreUnavailableError('invalid_config'); no request is made.
 */
export async function openExternalStore(
  type: ExternalStoreType,
  attrs: ExternalAttributes,
  limits: ExternalStoreOptions,
): Promise<BlobStore> {
  const creds = attrs.credentials;
  const allowPrivateAddresses = limits.allowPrivateAddresses;
  switch (type) {
    case 'aws_s3': {
      const { S3BlobStore } = await import('@patchbay/blob-s3');
      return new S3BlobStore({
        bucket: str(attrs.bucket),
        region: attrs.region || undefined,
        endpoint: attrs.endpoint || undefined,
        prefix: attrs.prefix,
        credentials: creds
          ? { access_key_id: str(creds.access_key_id), secret_access_key: str(creds.secret_access_key) }
          : undefined,
        connectTimeoutMs: limits.connectTimeoutMs,
        idleTimeoutMs: limits.requestTimeoutMs,
        maxAttempts: limits.retries + 1,
        allowPrivateAddresses,
      });
    }
    case 'azure_blob': {
      const { AzureBlobStore } = await import('@patchbay/blob-azure');
      const credentials = !creds
        ? undefined
        : creds.sas_token !== undefined
          ? { sas_token: str(creds.sas_token) }
          : { account_name: str(creds.account_name), account_key: str(creds.account_key) };
      return new AzureBlobStore({
        container: str(attrs.container),
        endpoint: attrs.endpoint || undefined,
        prefix: attrs.prefix,
        credentials,
        retries: limits.retries,
        timeoutMs: limits.requestTimeoutMs,
        allowPrivateAddresses,
      });
    }
    case 'gcp_storage': {
      const { GcsBlobStore } = await import('@patchbay/blob-gcs');
      return new GcsBlobStore({
        bucket: str(attrs.bucket),
        endpoint: attrs.endpoint || undefined,
        prefix: attrs.prefix,
        credentials: creds ? { service_account_json: str(creds.service_account_json) } : undefined,
        retries: limits.retries,
        timeoutMs: limits.requestTimeoutMs,
        allowPrivateAddresses,
      });
    }
    default:
      throw new BlobStoreUnavailableError({
        reason: 'invalid_config',
        message: `unknown storage type '${String(type)}'`,
      });
  }
}

import {
  BlobStoreUnavailableError,
  openBlobStore,
  type BlobStore,
  type Bus,
  type CommonConfigValues,
  type Logger,
} from '@patchbay/platform';
import { RoutedBlobStore } from './routed-blob-store';
import { BusStoreDirectory } from './store-directory';

/**
 * Patchbay's own blob store, as configured: S3 (or an S3-compatible server) when BLOB_STORE_URL is
 * `s3://bucket/prefix?endpoint=…&region=…`, with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; else
 * GridFS with MONGODB_URL; else the directory `<DATA_DIR>/blobs`. The S3 SDK is loaded only then.
 */
export async function openPlatformBlobStore(
  config: Pick<
    CommonConfigValues,
    | 'MONGODB_URL'
    | 'MONGODB_DB_PREFIX'
    | 'DATA_DIR'
    | 'BLOB_CACHE_MB'
    | 'BLOB_STORE_URL'
    | 'AWS_ACCESS_KEY_ID'
    | 'AWS_SECRET_ACCESS_KEY'
  >,
): Promise<BlobStore> {
  if (config.BLOB_STORE_URL) {
    const { S3BlobStore, parseS3Url } = await import('@patchbay/blob-s3');
    const where = parseS3Url(config.BLOB_STORE_URL);
    if (Boolean(config.AWS_ACCESS_KEY_ID) !== Boolean(config.AWS_SECRET_ACCESS_KEY)) {
      throw new BlobStoreUnavailableError({
        reason: 'invalid_config',
        message: 'BLOB_STORE_URL: set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither',
      });
    }
    const credentials =
      config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
        ? { access_key_id: config.AWS_ACCESS_KEY_ID, secret_access_key: config.AWS_SECRET_ACCESS_KEY }
        : undefined;
    // The operator's own bucket: often on a private network (a SeaweedFS or MinIO beside Patchbay).
    return new S3BlobStore({ ...where, credentials, allowPrivateAddresses: true });
  }
  return openBlobStore({
    mongodbUrl: config.MONGODB_URL,
    mongodbDbPrefix: config.MONGODB_DB_PREFIX,
    dataDir: config.DATA_DIR,
    blockCacheBytes: config.BLOB_CACHE_MB * 1024 * 1024,
  });
}

/**
 * What a service that reads or writes blobs is given (bootService's `openBlobs`, and the
 * all-in-one process): Patchbay's own store, with keys of external containers routed to their
 * storage through the storage service's directory.
 */
export async function openServiceBlobStore(ctx: {
  config: CommonConfigValues;
  bus: Bus;
  logger: Logger;
}): Promise<BlobStore> {
  const platform = await openPlatformBlobStore(ctx.config);
  return new RoutedBlobStore(
    platform,
    new BusStoreDirectory(ctx.bus, {
      timeoutMs: ctx.config.BUS_TIMEOUT_MS,
      allowPrivateAddresses: ctx.config.EXTERNAL_STORAGE_ALLOW_PRIVATE,
      log: ctx.logger,
    }),
  );
}

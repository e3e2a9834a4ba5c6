/**
 * @patchbay/blob-routing: which blob store a key is in (decisions §29).
 *
 * - `openServiceBlobStore`: what every service that touches blobs is given: Patchbay's own store
 *   (directory, GridFS or S3 by BLOB_STORE_URL) with `ext/<store_id>/…` keys routed to the
 *   external storage of a container (asked of the storage service, adapters cached);
 * - `openExternalStore`: an adapter from a container's attributes (the SDK loaded on first use);
 * - `externalKey` / `parseExternalKey`: the key form of blobs in external containers.
 */
export { externalKey, parseExternalKey, isExternalKey } from './external-key';
export { openExternalStore, EXTERNAL_LIMITS } from './external-store';
export type { ExternalStoreLimits, ExternalStoreOptions } from './external-store';
export { RoutedBlobStore } from './routed-blob-store';
export { BusStoreDirectory } from './store-directory';
export type { StoreDirectory } from './store-directory';
export { openPlatformBlobStore, openServiceBlobStore } from './platform-blob-store';

/**
 * Blob keys of external containers: `ext/<store_id>/<key in that store>`. The layout is the
 * contracts' blob-key vocabulary (one place); these names are kept for blob-routing's callers.
 */
export {
  externalBlobKey as externalKey,
  parseExternalBlobKey as parseExternalKey,
  isExternalBlobKey as isExternalKey,
} from '@patchbay/contracts';

import { ADDRESS_NOT_ALLOWED, type BlobStoreFailure } from '@patchbay/platform';
import { errorItem, type ErrorItem, type ExternalStoreType } from '@patchbay/contracts';

/**
 * What a failed check of an external storage says, in a few fixed plain reasons. Never the
 * provider's own text (an S3 `<Code>`, an `x-ms-error-code`, a socket error): those are for the log.
 * Whatever is at the address and does not answer as a working storage — a closed port, a silent
 * one, an HTTP server of another kind, something that is not HTTP at all, a provider's 5xx — gets
 * the same words, so the answer cannot be used to scan ports. A refused address has its own one
 * text whatever the address (ADDRESS_NOT_ALLOWED), naming `external_attributes.endpoint`.
 */
export function probeFailure(reason: BlobStoreFailure | undefined, type: ExternalStoreType): ErrorItem {
  const say = (words: string) => errorItem(`the storage cannot be used: ${words}`, 'external_attributes');
  switch (reason) {
    case 'address_not_allowed':
      return errorItem(ADDRESS_NOT_ALLOWED, 'external_attributes.endpoint');
    case 'bad_credentials':
    case 'access_denied':
      return say('credentials refused');
    case 'bucket_missing':
      return say(type === 'azure_blob' ? 'container not found' : 'bucket not found');
    case 'invalid_config':
      return say('the storage refused this location (check region, account and bucket)');
    default:
      return say('could not connect');
  }
}

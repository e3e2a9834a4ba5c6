/**
 * Azure's error codes that Azurite does not produce, read the way the SDK delivers them: a RestError
 * with `statusCode`, and the code in `code` or, for a bodiless HEAD answer, only in `details.errorCode`.
 */
import { RestError } from '@azure/storage-blob';
import { NotFoundError } from '@patchbay/contracts';
import { BlobStoreUnavailableError } from '@patchbay/platform';
import { translateAzureError } from '../src/azure-errors';

const target = { container: 'media', endpoint: 'https://acct.blob.core.windows.net' };

function restError(statusCode: number, code: string | undefined, message: string, head = false): RestError {
  const err = new RestError(message, { statusCode, ...(head ? {} : { code }) });
  (err as RestError & { details: unknown }).details = { errorCode: code };
  return err;
}

describe('translateAzureError', () => {
  it.each([
    [403, 'AuthenticationFailed', true, 'bad_credentials'],
    [403, 'AuthenticationFailed', false, 'bad_credentials'],
    [403, 'AuthorizationPermissionMismatch', false, 'access_denied'],
    [403, 'AuthorizationFailure', true, 'access_denied'],
    [404, 'ContainerNotFound', true, 'bucket_missing'],
    [400, 'InvalidResourceName', false, 'invalid_config'],
    [503, 'ServerBusy', false, 'provider_error'],
  ])('HTTP %i %s (HEAD: %s) is %s', (status, code, head, reason) => {
    const err = translateAzureError(restError(status, code, head ? '' : `${code} happened`), target, 'k');
    expect(err).toBeInstanceOf(BlobStoreUnavailableError);
    expect(err).toMatchObject({ reason, status: 503 });
  });

  it('reads a missing blob as NotFoundError, with or without a body', () => {
    expect(
      translateAzureError(restError(404, 'BlobNotFound', 'The specified blob does not exist.'), target, 'k'),
    ).toBeInstanceOf(NotFoundError);
    expect(translateAzureError(restError(404, 'BlobNotFound', '', true), target, 'k')).toBeInstanceOf(NotFoundError);
  });
});

/**
 * AWS SDK errors → the port's errors. S3 names its errors by code (`NoSuchBucket`, …) in the XML
 * body; HEAD answers have no body, so the SDK can only name them by status (`NotFound`, `Forbidden`).
 */
import { ApiError, NotFoundError, errorItem } from '@patchbay/contracts';
import { BlobStoreUnavailableError, fieldOf } from '@patchbay/platform';

/** What the messages name: never the credentials. */
export interface S3Target {
  bucket: string;
  region: string;
  /** The endpoint as configured, or AWS's regional one. */
  endpoint: string;
}

const DENIED = new Set(['AccessDenied', 'AllAccessDisabled', 'AccountProblem', 'Forbidden']);
const BAD_CREDENTIALS: Record<string, string> = {
  InvalidAccessKeyId: 'the storage does not know this access_key_id: check access_key_id and secret_access_key',
  SignatureDoesNotMatch: 'the storage rejected the signature: check secret_access_key',
  InvalidToken: 'the storage rejected the credentials: check access_key_id and secret_access_key',
  ExpiredToken: 'the credentials have expired',
};
const WRONG_REGION = new Set([
  'PermanentRedirect',
  'AuthorizationHeaderMalformed',
  'IllegalLocationConstraintException',
  'MovedPermanently',
]);

function notFound(key: string): NotFoundError {
  return new NotFoundError({ code: 'blob_not_found', errors: [errorItem(`no blob '${key}'`, 'key')] });
}

export function bucketMissing(target: S3Target, cause: unknown): BlobStoreUnavailableError {
  return new BlobStoreUnavailableError({
    reason: 'bucket_missing',
    message: `bucket '${target.bucket}' does not exist`,
    cause,
  });
}

/**
 * `key` is the port's key (without the store's prefix), for NotFoundError; omit it where a 404 cannot mean a missing
 * object.
 */
export function translateS3Error(err: unknown, target: S3Target, key?: string): ApiError {
  if (err instanceof ApiError) return err;
  const network = BlobStoreUnavailableError.network(err, target.endpoint);
  if (network) return network;
  const [awsCode, name] = [fieldOf(err, 'Code'), fieldOf(err, 'name')];
  const code = typeof awsCode === 'string' ? awsCode : typeof name === 'string' ? name : '';
  const httpStatus = fieldOf(fieldOf(err, '$metadata'), 'httpStatusCode');
  const status = typeof httpStatus === 'number' ? httpStatus : undefined;
  const fail = (reason: ConstructorParameters<typeof BlobStoreUnavailableError>[0]['reason'], message: string) =>
    new BlobStoreUnavailableError({ reason, message, cause: err });

  if (code === 'NoSuchBucket') return bucketMissing(target, err);
  if ((code === 'NoSuchKey' || code === 'NotFound') && key !== undefined) return notFound(key);
  if (BAD_CREDENTIALS[code]) return fail('bad_credentials', BAD_CREDENTIALS[code]);
  if (DENIED.has(code) || status === 403) {
    return fail(
      'access_denied',
      `access denied to bucket '${target.bucket}': check access_key_id, secret_access_key and the bucket's policy`,
    );
  }
  if (WRONG_REGION.has(code) || status === 301) {
    return fail(
      'invalid_config',
      `bucket '${target.bucket}' is not in region '${target.region}': set region to the bucket's region`,
    );
  }
  if (code === 'InvalidBucketName') return fail('invalid_config', `'${target.bucket}' is not a valid bucket name`);
  if (code === 'RequestTimeout') return fail('timeout', `${target.endpoint} did not answer in time`);
  if (status !== undefined && status >= 500)
    return fail('provider_error', `the storage failed (HTTP ${status}${code ? ` ${code}` : ''})`);
  if (status !== undefined)
    return fail('provider_error', `the storage refused the request (HTTP ${status}${code ? ` ${code}` : ''})`);
  return fail('provider_error', `the storage request failed${code && code !== 'Error' ? ` (${code})` : ''}`);
}

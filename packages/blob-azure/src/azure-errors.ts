/**
 * `@azure/storage-blob` errors → the port's errors. Azure names every failure in the
 * `x-ms-error-code` header (also on bodiless HEAD answers), which the SDK puts in RestError.code;
 * socket failures arrive as RestError REQUEST_SEND_ERROR quoting Node's message.
 */
import { ApiError, NotFoundError, errorItem } from '@patchbay/contracts';
import { BlobStoreUnavailableError, fieldOf } from '@patchbay/platform';

/** What the messages name: never the credentials. */
export interface AzureTarget {
  container: string;
  endpoint: string;
}

const DENIED = new Set([
  'AuthorizationFailure',
  'AuthorizationPermissionMismatch',
  'AuthorizationResourceTypeMismatch',
  'AuthorizationServiceMismatch',
  'AuthorizationProtocolMismatch',
  'AuthorizationSourceIPMismatch',
  'InsufficientAccountPermissions',
  'AccountIsDisabled',
]);

function notFound(key: string): NotFoundError {
  return new NotFoundError({ code: 'blob_not_found', errors: [errorItem(`no blob '${key}'`, 'key')] });
}

/** Azure's error code; a HEAD answer's is only in `details` (its x-ms-error-code header). */
export function errorCode(err: unknown): string | undefined {
  const code = fieldOf(fieldOf(err, 'details'), 'errorCode') ?? fieldOf(err, 'code');
  return typeof code === 'string' ? code : undefined;
}

export function httpStatus(err: unknown): number | undefined {
  const status = fieldOf(err, 'statusCode');
  return typeof status === 'number' ? status : undefined;
}

/** `key` is the port's key, for NotFoundError; omit it where a 404 cannot mean a missing object. */
export function translateAzureError(err: unknown, target: AzureTarget, key?: string): ApiError {
  if (err instanceof ApiError) return err;
  const network = BlobStoreUnavailableError.network(err, target.endpoint);
  if (network) return network;
  const code = errorCode(err) ?? '';
  const status = httpStatus(err);
  const fail = (reason: ConstructorParameters<typeof BlobStoreUnavailableError>[0]['reason'], message: string) =>
    new BlobStoreUnavailableError({ reason, message, cause: err });

  if (code === 'ContainerNotFound') return fail('bucket_missing', `container '${target.container}' does not exist`);
  if ((code === 'BlobNotFound' || (status === 404 && !code)) && key !== undefined) return notFound(key);
  // Azurite reports a bad signature as AuthorizationFailure with Azure's AuthenticationFailed message.
  const message = fieldOf(err, 'message');
  const authentication = typeof message === 'string' && /failed to authenticate/i.test(message);
  if (code === 'AuthenticationFailed' || code === 'InvalidAuthenticationInfo' || status === 401 || authentication) {
    return fail(
      'bad_credentials',
      'the storage rejected the credentials: check account_name and account_key, or sas_token',
    );
  }
  if (DENIED.has(code) || status === 403)
    return fail(
      'access_denied',
      `access denied to container '${target.container}': check the credentials' permissions`,
    );
  if (code === 'InvalidResourceName')
    return fail('invalid_config', `'${target.container}' is not a valid container name`);
  if (code === 'AccountNotFound' || code === 'ResourceNotFound')
    return fail('invalid_config', `no storage account at ${target.endpoint}`);
  if (fieldOf(err, 'name') === 'AbortError') return fail('timeout', `${target.endpoint} did not answer in time`);
  if (status !== undefined && status >= 500)
    return fail('provider_error', `the storage failed (HTTP ${status}${code ? ` ${code}` : ''})`);
  if (status !== undefined)
    return fail('provider_error', `the storage refused the request (HTTP ${status}${code ? ` ${code}` : ''})`);
  return fail('provider_error', `the storage request failed${code ? ` (${code})` : ''}`);
}

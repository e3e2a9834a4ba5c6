/**
 * `@google-cloud/storage` errors → the port's errors. The library reports one failure three ways:
 * JSON API calls as an ApiError (`code` = HTTP status, `errors[].reason`, GCS's message), resumable
 * uploads as a GaxiosError (`response.status`, `response.data.error`), and media downloads as an
 * error whose `message` is the raw JSON body. All three are read here into status + message.
 */
import { ApiError, NotFoundError, errorItem } from '@patchbay/contracts';
import { BlobStoreUnavailableError, fieldOf } from '@patchbay/platform';

/** What the messages name: never the credentials. */
export interface GcsTarget {
  bucket: string;
  endpoint: string;
}

interface Reading {
  status?: number;
  message: string;
}

function notFound(key: string): NotFoundError {
  return new NotFoundError({ code: 'blob_not_found', errors: [errorItem(`no blob '${key}'`, 'key')] });
}

/** HTTP status and GCS's own message, wherever the library put them. */
export function readGcsError(err: unknown): Reading {
  const code = fieldOf(err, 'code');
  const response = fieldOf(err, 'response');
  const responseStatus = fieldOf(response, 'status');
  const status = typeof code === 'number' ? code : typeof responseStatus === 'number' ? responseStatus : undefined;
  const errMessage = fieldOf(err, 'message');
  let body: unknown = fieldOf(response, 'data');
  const text = typeof body === 'string' ? body : typeof errMessage === 'string' ? errMessage : undefined;
  if (typeof body === 'string' || (body === undefined && text?.startsWith('{'))) {
    try {
      body = JSON.parse(text ?? '');
    } catch {
      body = undefined;
    }
  }
  const fromBody = fieldOf(fieldOf(body, 'error'), 'message');
  const message =
    typeof fromBody === 'string'
      ? fromBody
      : typeof errMessage === 'string' && !errMessage.startsWith('{')
        ? errMessage
        : '';
  return { status, message };
}

/** `key` is the port's key, for NotFoundError; omit it where a 404 cannot mean a missing object. */
export function translateGcsError(err: unknown, target: GcsTarget, key?: string): ApiError {
  if (err instanceof ApiError) return err;
  const network = BlobStoreUnavailableError.network(err, target.endpoint);
  if (network) return network;
  // node-fetch (under both the JSON API calls and gaxios, which keeps it as `error`) marks its own
  // time limit by `type`, without a code.
  if (fieldOf(err, 'type') === 'request-timeout' || fieldOf(fieldOf(err, 'error'), 'type') === 'request-timeout') {
    return new BlobStoreUnavailableError({
      reason: 'timeout',
      message: `${target.endpoint} did not answer in time`,
      cause: err,
    });
  }
  const { status, message } = readGcsError(err);
  const code = fieldOf(err, 'code');
  const fail = (reason: ConstructorParameters<typeof BlobStoreUnavailableError>[0]['reason'], text: string) =>
    new BlobStoreUnavailableError({ reason, message: text, cause: err });
  const said = message ? `: ${message.slice(0, 300)}` : '';

  if (status === 404 && /bucket does not exist/i.test(message))
    return fail('bucket_missing', `bucket '${target.bucket}' does not exist`);
  if (status === 404 && key !== undefined) return notFound(key);
  if (status === 401)
    return fail('bad_credentials', 'the storage rejected the credentials: check service_account_json');
  if (status === 403) return fail('access_denied', `access denied to bucket '${target.bucket}'${said}`);
  if (status === 400 && /bucket/i.test(message))
    return fail('invalid_config', `bucket '${target.bucket}' cannot be used${said}`);
  if (code === 'CONTENT_DOWNLOAD_MISMATCH' || code === 'FILE_NO_UPLOAD' || code === 'FILE_NO_UPLOAD_DELETE') {
    return fail('provider_error', 'the storage returned data that does not match its checksum');
  }
  if (status === 408) return fail('timeout', `${target.endpoint} did not answer in time`);
  if (status !== undefined && status >= 500)
    return fail('provider_error', `the storage failed (HTTP ${status})${said}`);
  if (status !== undefined) return fail('provider_error', `the storage refused the request (HTTP ${status})${said}`);
  return fail('provider_error', 'the storage request failed');
}

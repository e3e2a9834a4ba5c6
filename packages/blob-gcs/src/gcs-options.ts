/**
 * Options of the Google Cloud Storage blob store, and the Storage client options they make. The
 * first four mirror a container's `external_attributes` for `gcp_storage`; the rest are tuning.
 */
import type { StorageOptions } from '@google-cloud/storage';
import { BlobStoreUnavailableError, checkEndpointUrl, fieldOf } from '@patchbay/platform';

export interface GcsCredentials {
  /** Base64 of the service account key file (JSON). */
  service_account_json: string;
}

export interface GcsBlobStoreOptions {
  bucket: string;
  /** API root (`https://host[:port]`) instead of `https://storage.googleapis.com`. */
  endpoint?: string;
  /** Prepended to every key (`a/b` → `a/b/<key>`) and stripped from listed keys. */
  prefix?: string;
  /**
   * Required for Google's own endpoint: without them the library would fall back to Application
   * Default Credentials (environment, metadata server), i.e. the identity of the machine Patchbay
   * runs on, which a partner's container must never borrow. With a custom `endpoint` and no
   * credentials, requests go out unauthenticated.
   */
  credentials?: GcsCredentials;
  /** Retries of a failed request (the library's backoff in between). Default 2. */
  retries?: number;
  /** Limit for one metadata, delete or list request, and for silence during an upload. Default 30 s. */
  timeoutMs?: number;
  /** Keys per list request (GCS's maximum, 1000, by default). */
  pageSize?: number;
  /**
   * Connect to loopback, private, link-local and other non-public addresses at `endpoint` (tests, a
   * private deployment). Default false: the outbound-address guard refuses them (guarded-transport.ts).
   */
  allowPrivateAddresses?: boolean;
}

export const GOOGLE_ENDPOINT = 'https://storage.googleapis.com';

/** The Storage options; throws BlobStoreUnavailableError('invalid_config') for options that cannot work. */
export function storageOptions(opts: GcsBlobStoreOptions): StorageOptions {
  if (opts.endpoint !== undefined) checkEndpointUrl(opts.endpoint);
  if (!opts.endpoint && !opts.credentials) {
    throw invalid(
      'credentials.service_account_json is required for Google Cloud Storage ' +
        '(only a custom endpoint may be used without)',
    );
  }
  const key = opts.credentials && serviceAccount(opts.credentials.service_account_json);
  const retries = opts.retries ?? 2;
  return {
    // Library quirk: STORAGE_EMULATOR_HOST in the environment overrides apiEndpoint for JSON API
    // calls, whatever is passed here. Deployments must not set it.
    ...(opts.endpoint ? { apiEndpoint: opts.endpoint.replace(/\/+$/, '') } : {}),
    ...(key
      ? { credentials: { client_email: key.client_email, private_key: key.private_key }, projectId: key.project_id }
      : {}),
    // With apiEndpoint set the library skips authentication unless told otherwise.
    useAuthWithCustomEndpoint: Boolean(key),
    timeout: opts.timeoutMs ?? 30_000,
    // The library reads `maxRetries: 0` as "use the default (3)": no retries must be said with autoRetry.
    retryOptions: {
      autoRetry: retries > 0,
      maxRetries: Math.max(retries, 1),
      retryDelayMultiplier: 2,
      maxRetryDelay: 8,
      totalTimeout: 60,
    },
  };
}

/** `''` or `a/b/`; a prefix must itself be a valid key. */
interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  project_id?: string;
}

/** Decodes the key file; the message never quotes it. */
function serviceAccount(base64: string): ServiceAccountKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    key = undefined;
  }
  const [clientEmail, privateKey, projectId] = ['client_email', 'private_key', 'project_id'].map((k) =>
    fieldOf(key, k),
  );
  if (typeof clientEmail !== 'string' || typeof privateKey !== 'string') {
    throw invalid(
      'credentials.service_account_json is not Base64 of a service account ' +
        'key file (JSON with client_email and private_key)',
    );
  }
  return {
    client_email: clientEmail,
    private_key: privateKey,
    project_id: typeof projectId === 'string' ? projectId : undefined,
  };
}

function invalid(message: string): BlobStoreUnavailableError {
  return new BlobStoreUnavailableError({ reason: 'invalid_config', message });
}

/**
 * Options of the S3 blob store, and the S3Client configuration they make. The first five mirror a
 * container's `external_attributes` for `aws_s3`; the rest are tuning with safe defaults.
 */
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { BlobStoreUnavailableError, checkEndpointUrl, outboundAgents } from '@patchbay/platform';

export interface S3Credentials {
  access_key_id: string;
  secret_access_key: string;
}

export interface S3BlobStoreOptions {
  bucket: string;
  /** Default `us-east-1` (also what most S3-compatible servers expect). */
  region?: string;
  /** An S3-compatible server (`http://host:port`); addressed path-style (`/<bucket>/<key>`). Default: AWS. */
  endpoint?: string;
  /** Prepended to every key (`a/b` → `a/b/<key>`) and stripped from listed keys. */
  prefix?: string;
  /**
   * Without credentials, requests go unsigned (a public bucket): the SDK's own credential chain
   * (environment, ~/.aws, instance roles) is never consulted, so a partner's container can never
   * borrow the identity of the machine Patchbay runs on.
   */
  credentials?: S3Credentials;
  /** Multipart part size in bytes (min 5 MiB). A put holds at most `queueSize + 1` parts in memory. Default 8 MiB. */
  partSize?: number;
  /** Parts uploaded at once. Default 2. */
  queueSize?: number;
  /** Connection set-up limit. Default 5 s. */
  connectTimeoutMs?: number;
  /** A socket idle this long (no bytes either way) fails the request. Default 60 s. */
  idleTimeoutMs?: number;
  /** Keys per list request (S3's maximum, 1000, by default). */
  pageSize?: number;
  /** Attempts per request, with the SDK's backoff in between. Default 3. */
  maxAttempts?: number;
  /**
   * Connect to loopback, private, link-local and other non-public addresses (Patchbay's own bucket,
   * tests). Default false: a partner's container never reaches them, whatever `endpoint` says or
   * its name resolves to when a socket is opened (the outbound-address guard of @patchbay/platform).
   */
  allowPrivateAddresses?: boolean;
}

export const DEFAULT_REGION = 'us-east-1';

/** The client configuration; throws BlobStoreUnavailableError('invalid_config') for options that cannot work. */
export function s3ClientConfig(opts: S3BlobStoreOptions): S3ClientConfig {
  const region = opts.region || DEFAULT_REGION;
  if (!/^[a-z0-9-]+$/.test(region)) throw invalid(`region '${region}' is not a region name`);
  if (opts.endpoint !== undefined) checkEndpointUrl(opts.endpoint);
  const creds = opts.credentials;
  if (creds && (!creds.access_key_id || !creds.secret_access_key))
    throw invalid('credentials need both access_key_id and secret_access_key');
  return {
    region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    credentials: creds
      ? { accessKeyId: creds.access_key_id, secretAccessKey: creds.secret_access_key }
      : async () => ({ accessKeyId: '', secretAccessKey: '' }),
    // No credentials: a signer that leaves requests as they are (the SDK has no anonymous mode).
    ...(creds ? {} : { signer: { sign: async <R>(request: R) => request } }),
    maxAttempts: opts.maxAttempts ?? 3,
    // Since 3.729 the SDK adds CRC32 checksums (aws-chunked trailers) to every upload by default,
    // which many S3-compatible servers reject or store wrongly: only send them where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without these the SDK would read AWS_ENDPOINT_URL* from the environment and redirect us.
    ignoreConfiguredEndpointUrls: true,
    // The SDK never follows redirects (a 301 is an error); every socket opens through the guard.
    requestHandler: {
      connectionTimeout: opts.connectTimeoutMs ?? 5000,
      socketTimeout: opts.idleTimeoutMs ?? 60_000,
      ...agentsOf(outboundAgents({ allowPrivate: opts.allowPrivateAddresses ?? false })),
    },
  };
}

function agentsOf(agents: ReturnType<typeof outboundAgents>) {
  return { httpAgent: agents.http, httpsAgent: agents.https };
}

function invalid(message: string): BlobStoreUnavailableError {
  return new BlobStoreUnavailableError({ reason: 'invalid_config', message });
}

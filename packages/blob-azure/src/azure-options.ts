/**
 * Options of the Azure blob store, and the ContainerClient they make. The first four mirror a
 * container's `external_attributes` for `azure_blob`; the rest are tuning with safe defaults.
 */
import {
  AnonymousCredential,
  BlobServiceClient,
  newPipeline,
  StorageSharedKeyCredential,
  type ContainerClient,
  type RequestPolicyFactory,
} from '@azure/storage-blob';
import { BlobStoreUnavailableError, checkEndpointUrl, outboundAgents } from '@patchbay/platform';

export type AzureCredentials = { account_name: string; account_key: string } | { sas_token: string };

export interface AzureBlobStoreOptions {
  /** The blob container (Azure's word for a bucket). */
  container: string;
  /**
   * The account's blob URL (`https://<account>.blob.core.windows.net`, Azurite's `http://host:port/<account>`).
   * Default: from account_name.
   */
  endpoint?: string;
  /** Prepended to every key (`a/b` → `a/b/<key>`) and stripped from listed keys. */
  prefix?: string;
  /**
   * A shared key, or a SAS token (with or without its leading `?`). Without either, requests are
   * anonymous; the SDK never looks for ambient credentials, so none can be borrowed.
   */
  credentials?: AzureCredentials;
  /** Block size in bytes; a put holds at most about `concurrency + 1` blocks in memory. Default 4 MiB. */
  blockSize?: number;
  /** Blocks uploaded at once. Default 2. */
  concurrency?: number;
  /** Tries after the first failed one, 0.2 s to 2 s apart. Default 2. */
  retries?: number;
  /** Limit for one request until its answer begins (so the whole request for a block upload). Default 30 s. */
  timeoutMs?: number;
  /** Keys per list request (Azure's maximum, 5000, by default). */
  pageSize?: number;
  /**
   * Connect to loopback, private, link-local and other non-public addresses (tests, a private
   * deployment). Default false: the outbound-address guard of @patchbay/platform refuses them.
   */
  allowPrivateAddresses?: boolean;
}

/** The container client and the endpoint messages name; throws BlobStoreUnavailableError('invalid_config'). */
export function containerClient(opts: AzureBlobStoreOptions): { client: ContainerClient; endpoint: string } {
  const creds = opts.credentials;
  const account = creds && 'account_name' in creds ? creds.account_name : undefined;
  if (creds && 'account_name' in creds && !/^[A-Za-z0-9+/=]+$/.test(creds.account_key ?? ''))
    throw invalid('credentials.account_key is not a Base64 account key');
  if (creds && 'sas_token' in creds && !creds.sas_token) throw invalid('credentials.sas_token is empty');
  if (!opts.endpoint && !account)
    throw invalid('endpoint is required unless credentials name the account (account_name)');
  const endpoint = (opts.endpoint ?? `https://${account}.blob.core.windows.net`).replace(/\/+$/, '');
  checkEndpointUrl(endpoint, { queryHint: 'put a SAS token in credentials.sas_token' });
  const credential =
    creds && 'account_name' in creds
      ? new StorageSharedKeyCredential(creds.account_name, creds.account_key)
      : new AnonymousCredential();
  const agents = outboundAgents({ allowPrivate: opts.allowPrivateAddresses ?? false });
  // Options the storage pipeline hands on to core-rest-pipeline as they are (typed there, not here):
  // every socket through the guard (an agent also bypasses any proxy from the environment), and no
  // redirect followed.
  const transport = {
    agent: endpoint.startsWith('https:') ? agents.https : agents.http,
    redirectOptions: { maxRetries: 0 },
  };
  const pipeline = newPipeline(credential, {
    // The retry policy's tryTimeoutInMs only asks the server to give up (a `timeout` URL parameter):
    // a server that never answers is the client's own limit, below.
    retryOptions: { maxTries: (opts.retries ?? 2) + 1, retryDelayInMs: 200, maxRetryDelayInMs: 2000 },
    ...transport,
  });
  pipeline.factories.push(requestTimeout(opts.timeoutMs ?? 30_000));
  const url = creds && 'sas_token' in creds ? `${endpoint}?${creds.sas_token.replace(/^\?/, '')}` : endpoint;
  return { client: new BlobServiceClient(url, pipeline).getContainerClient(opts.container), endpoint };
}

/**
 * Gives every request a client-side limit (`WebResource.timeout`): the HTTP client aborts a request
 * whose answer has not begun within `ms` (a response body already streaming is not cut).
 */
function requestTimeout(ms: number): RequestPolicyFactory {
  return {
    create: (next) => ({
      sendRequest: (request) => {
        if (!request.timeout) request.timeout = ms;
        return next.sendRequest(request);
      },
    }),
  };
}

/** `''` or `a/b/`; a prefix must itself be a valid key. */
function invalid(message: string): BlobStoreUnavailableError {
  return new BlobStoreUnavailableError({ reason: 'invalid_config', message });
}

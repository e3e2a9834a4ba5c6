import createClient, { type Client } from 'openapi-fetch';
import { authorization, type Credentials } from './auth';
import { data } from './data';
import { rawBody, type Body } from './raw-body';
import { idempotent, type IdempotentOptions } from './idempotent';
import { pageFetcher, pages, paginate, type PaginateOptions } from './pagination';
import { originOf, reportingFetch } from './connection-error';
import type { ListEnvelope, ListItem, ListPath, ListQuery, paths, Schemas, operations } from './types';

export interface PatchbayClientOptions {
  /** The API root (BASE_URL), e.g. `http://127.0.0.1:8080/core/v2`. */
  baseUrl: string;
  /** An access token, or a login and password (HTTP Basic); none for the token grant. */
  credentials?: Credentials;
  /** The fetch to use (default: the global one); a test or a proxy may give its own. */
  fetch?: typeof fetch;
}

/** The File fields of an upload (only `container_sid` is required). */
export type UploadFields = NonNullable<operations['postStorageFiles']['parameters']['query']>;
/**
 * How an upload is sent: its Content-Type (default application/octet-stream), and its idempotency key
 * and retries (idempotent.ts). An upload always carries a key (a new one unless given) and is sent
 * again with it after a network failure, a 502/503/504 or a 409 while it still runs — `retries`
 * times (default 2) when the body can be sent again (a Blob, bytes or text; a stream only once).
 */
export interface UploadOptions extends IdempotentOptions {
  contentType?: string;
}

/** The public file server's query parameters (`f`, `br`, `disposition`, cache ones…). */
export type PublicFileQuery = NonNullable<operations['getPublicFile']['parameters']['query']>;

/**
 * A client of Patchbay's public API. `api` is an openapi-fetch client typed from the OpenAPI
 * document (every path, parameter, body and response); wrap a call in `data()` to get the typed
 * result or a PatchbayApiError (a request that got no answer: a PatchbayConnectionError). The
 * rest is what plain calls do not give: walking lists, sending bytes, reading public links.
 * Nothing here needs Node: it runs in a browser as well.
 */
export interface PatchbayClient {
  readonly baseUrl: string;
  readonly api: Client<paths>;
  /** Every item of a list across its pages (follows `pagination.next`, or `previous`). */
  paginate<P extends ListPath>(path: P, query?: ListQuery<P>, opts?: PaginateOptions): AsyncGenerator<ListItem<P>>;
  /** Every page (envelope) of a list. */
  pages<P extends ListPath>(path: P, query?: ListQuery<P>, opts?: PaginateOptions): AsyncGenerator<ListEnvelope<P>>;
  /**
   * Uploads bytes (a Blob, bytes, or a ReadableStream, streamed) as a new file: the File, 201. Retried
   * with one Idempotency-Key, so a retry after a lost answer never stores the file twice (UploadOptions).
   */
  upload(fields: UploadFields, body: Body, opts?: UploadOptions): Promise<Schemas['File']>;
  /** GETs a public link (`publish_uri`, no credentials) with file-server parameters and an optional Range. */
  publicFile(publishUri: string, query?: PublicFileQuery, opts?: { range?: string }): Promise<Response>;
  /** The same client with other credentials (say, the token just issued). */
  withCredentials(credentials: Credentials): PatchbayClient;
}

export function createPatchbayClient(options: PatchbayClientOptions): PatchbayClient {
  const given = options.fetch ?? ((input: Parameters<typeof fetch>[0], init?: RequestInit) => fetch(input, init));
  // A request that gets no answer fails naming the API root (or a public link's origin) and why.
  const fetchImpl = reportingFetch(given, (url) => (url.startsWith(options.baseUrl) ? options.baseUrl : originOf(url)));
  const headers = authorization(options.credentials ?? {});
  const api = createClient<paths>({ baseUrl: options.baseUrl, headers, fetch: fetchImpl });
  const fetchPage = pageFetcher(fetchImpl, headers);
  return {
    baseUrl: options.baseUrl,
    api,
    paginate: (path, query, opts) => paginate(api, fetchPage, path, query, opts),
    pages: (path, query, opts) => pages(api, fetchPage, path, query, opts),
    upload: (fields, body, opts = {}) => {
      const once = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
      return data(
        idempotent(
          (headers) =>
            api.POST('/storage/files', {
              params: { query: fields },
              ...rawBody(body, opts.contentType ?? 'application/octet-stream', headers),
            }),
          { ...opts, retries: once ? 0 : opts.retries },
        ),
      );
    },
    publicFile: (publishUri, query = {}, opts = {}) => {
      const url = new URL(publishUri);
      for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
      return fetchImpl(url, { headers: opts.range ? { Range: opts.range } : {} });
    },
    withCredentials: (credentials) => createPatchbayClient({ ...options, credentials }),
  };
}

/**
 * @patchbay/client — a typed client for Patchbay's public API, for Node and browsers. Types are
 * generated from the OpenAPI document (src/generated/openapi.ts); calls go through openapi-fetch.
 *
 *   const pb = createPatchbayClient({ baseUrl, credentials: { token } });
 *   const endpoint = await data(pb.api.GET('/endpoints/{endpoint_sid}', { params: { path: { endpoint_sid } } }));
 *   for await (const file of pb.paginate('/storage/files', { filter: 'name like "%.wav"' })) …
 *   // A write sent again after a lost answer runs once: the same Idempotency-Key on every attempt.
 *   await data(idempotent((headers) => pb.api.POST('/endpoints', { body, headers }), { idempotencyKey }));
 */
export { createPatchbayClient } from './client';
export type { PatchbayClient, PatchbayClientOptions, UploadFields, UploadOptions, PublicFileQuery } from './client';
export { idempotent, newIdempotencyKey, IDEMPOTENCY_KEY_HEADER } from './idempotent';
export type { IdempotentOptions } from './idempotent';
export { rawBody } from './raw-body';
export type { Body, RawBodyOptions } from './raw-body';
export { data, ok } from './data';
export type { CallResult } from './data';
export { PatchbayApiError } from './errors';
export { PatchbayConnectionError } from './connection-error';
export { authorization } from './auth';
export type { Credentials } from './auth';
export type { PaginateOptions } from './pagination';
export type {
  components,
  operations,
  paths,
  Schemas,
  ErrorBody,
  ErrorItem,
  ListPath,
  ListEnvelope,
  ListItem,
  ListQuery,
} from './types';

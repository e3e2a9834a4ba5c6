import { PatchbayApiError } from './errors';

/** What an openapi-fetch call resolves with. */
export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The result of a call that succeeded — its data and the Response (status, headers) — or its
 * PatchbayApiError. For streamed answers (`parseAs: 'stream'`) and where headers matter.
 */
export async function ok<T>(call: Promise<CallResult<T>>): Promise<{ data: T; response: Response }> {
  const { data: value, error, response } = await call;
  if (!response.ok) throw PatchbayApiError.from(response, error);
  // why: openapi-fetch leaves `data` undefined only for a bodiless answer (a 204), which `data()` documents.
  return { data: value as T, response };
}

/**
 * The data of a call, or its PatchbayApiError: `await data(pb.api.GET('/endpoints/{endpoint_sid}', …))`
 * is the Endpoint, typed from the document. A 204 resolves with `undefined`.
 */
export async function data<T>(call: Promise<CallResult<T>>): Promise<T> {
  return (await ok(call)).data;
}

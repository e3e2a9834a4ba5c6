import { isJsonObject } from '@patchbay/platform';
import type { Response } from 'express';
import type { ApiError, BusReply } from '@patchbay/contracts';

/** JSON keys of every object in alphabetical order, as the compatible API returns them. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (isJsonObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep(value[key]);
    return out;
  }
  return value;
}

/** Sends a status and JSON body (keys sorted); 204 sends nothing. */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (status === 204) {
    res.status(204).end();
    return;
  }
  res
    .status(status)
    .type('application/json')
    .send(JSON.stringify(sortKeysDeep(body)));
}

/** Sends a service's reply as-is: its body, or its error body with Retry-After when it says when to retry. */
export function sendReply(res: Response, reply: BusReply): void {
  if (!('error' in reply)) {
    sendJson(res, reply.status, reply.body);
    return;
  }
  if (reply.retry_after) res.setHeader('Retry-After', String(reply.retry_after));
  sendJson(res, reply.status, reply.error);
}

/** Sends a typed error: its status and body, and Retry-After when it says when to retry. */
export function sendError(res: Response, err: ApiError): void {
  if (err.retryAfterSeconds) res.setHeader('Retry-After', String(err.retryAfterSeconds));
  sendJson(res, err.status, err.toBody());
}

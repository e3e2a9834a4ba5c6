import { isJsonObject } from '@patchbay/platform';
import type { PushResult } from '@patchbay/contracts';

/**
 * What one provider attempt said about one device: a final result, or "try again" for a
 * transient failure (5xx, 429, a connection that failed before the request was sent), with the
 * provider's `Retry-After` as `afterMs` when it gave one (no retry comes sooner).
 */
export type AttemptOutcome =
  { retry: false; result: PushResult; detail?: string } | { retry: true; detail: string; afterMs?: number };

export const done = (result: PushResult, detail?: string): AttemptOutcome => ({
  retry: false,
  result,
  ...(detail ? { detail } : {}),
});
export const again = (detail: string, afterMs?: number): AttemptOutcome =>
  afterMs === undefined ? { retry: true, detail } : { retry: true, detail, afterMs };

/**
 * FCM HTTP v1 error codes (the FcmError `errorCode` in the error's details, else the error's
 * canonical `status`) as results — the mapping firebase-admin applies before its own codes.
 */
const FCM_FINAL: Record<string, PushResult> = {
  UNREGISTERED: 'unregistered',
  NOT_FOUND: 'unregistered',
  // FCM v1 answers INVALID_ARGUMENT for a malformed token; the rest of the message is checked before sending.
  INVALID_ARGUMENT: 'invalid_token',
  SENDER_ID_MISMATCH: 'provider_error',
  PERMISSION_DENIED: 'provider_error',
  THIRD_PARTY_AUTH_ERROR: 'provider_error',
  APNS_AUTH_ERROR: 'provider_error',
  UNAUTHENTICATED: 'provider_error',
};
const FCM_TRANSIENT = new Set(['QUOTA_EXCEEDED', 'RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'INTERNAL', 'UNSPECIFIED_ERROR']);
const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

/** The FCM error code of an error body (null when it is not FCM's JSON). */
export function fcmErrorCode(body: string): { code: string; message?: string } | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const error = isJsonObject(json) ? json.error : undefined;
  if (typeof error === 'string') return { code: error };
  if (!isJsonObject(error)) return null;
  const message = typeof error.message === 'string' ? error.message : undefined;
  if (Array.isArray(error.details)) {
    for (const d of error.details)
      if (isJsonObject(d) && d['@type'] === FCM_ERROR_TYPE && typeof d.errorCode === 'string')
        return { code: d.errorCode, message };
  }
  return typeof error.status === 'string' ? { code: error.status, message } : null;
}

/** `Retry-After` (delta seconds or an HTTP date) as ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * One FCM HTTP v1 answer as an outcome: 200 is a success; a dead or malformed token is final;
 * 429 and 5xx are retried, no sooner than their `Retry-After`; credentials FCM refuses are
 * `provider_error`. A body that is not FCM's JSON is read from its status alone.
 */
export function fcmOutcome(status: number, body: string, retryAfter?: string, now = Date.now()): AttemptOutcome {
  if (status >= 200 && status < 300) return done('success');
  const error = fcmErrorCode(body);
  const detail = `${status} ${error?.code ?? ''}${error?.message ? `: ${error.message}` : ''}`.trim();
  const key = error?.code;
  if (key && FCM_FINAL[key]) return done(FCM_FINAL[key], detail);
  if ((key && FCM_TRANSIENT.has(key)) || status === 429 || status >= 500)
    return again(detail, status === 429 || status === 503 ? retryAfterMs(retryAfter, now) : undefined);
  if (status === 400) return done('invalid_token', detail);
  return done('provider_error', detail);
}

/** An APNs failure: an HTTP status, its reason and `Retry-After`, or a transport error. */
export interface ApnsFailure {
  status?: number | string;
  response?: { reason?: string };
  retryAfter?: string;
  error?: { message?: string };
}

const APNS_INVALID = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'MissingDeviceToken']);
const APNS_TRANSIENT_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * An APNs failure as an outcome. 410 (`Unregistered`, `ExpiredToken`) means the token is dead;
 * 429/5xx and connection failures are retried (429 and 503 no sooner than their `Retry-After`); a
 * request timeout is final (it may have arrived).
 */
export function apnsOutcome(f: ApnsFailure, now = Date.now()): AttemptOutcome {
  const status = typeof f.status === 'number' ? f.status : Number(f.status);
  const reason = f.response?.reason;
  if (status === 410 || reason === 'Unregistered' || reason === 'ExpiredToken')
    return done('unregistered', reason ?? '410');
  if (reason && APNS_INVALID.has(reason)) return done('invalid_token', reason);
  if (APNS_TRANSIENT_STATUS.has(status))
    return again(
      `${status} ${reason ?? ''}`.trim(),
      status === 429 || status === 503 ? retryAfterMs(f.retryAfter, now) : undefined,
    );
  if (Number.isFinite(status)) return done('provider_error', `${status} ${reason ?? ''}`.trim());
  const message = f.error?.message ?? 'unknown transport error';
  if (/timeout/i.test(message)) return done('provider_error', message);
  return again(message);
}

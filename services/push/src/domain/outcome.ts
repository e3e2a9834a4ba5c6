import type { PushResult } from '@patchbay/contracts';

/**
 * What one provider attempt said about one device: a final result, or "try again" for a
 * transient failure (5xx, 429, a connection that failed before the request was sent).
 */
export type AttemptOutcome = { retry: false; result: PushResult; detail?: string } | { retry: true; detail: string };

export const done = (result: PushResult, detail?: string): AttemptOutcome => ({
  retry: false,
  result,
  ...(detail ? { detail } : {}),
});
export const again = (detail: string): AttemptOutcome => ({ retry: true, detail });

const FCM_FINAL: Record<string, PushResult> = {
  'messaging/registration-token-not-registered': 'unregistered',
  'messaging/invalid-registration-token': 'invalid_token',
  // FCM v1 answers INVALID_ARGUMENT for a malformed token; the rest of the message is checked before sending.
  'messaging/invalid-argument': 'invalid_token',
};
const FCM_TRANSIENT = new Set([
  'messaging/server-unavailable',
  'messaging/internal-error',
  'messaging/message-rate-exceeded',
  'messaging/device-message-rate-exceeded',
  'messaging/unknown-error',
  'app/network-error',
]);

/**
 * A firebase-admin error code as an outcome. A network timeout is final: the message may have
 * been delivered, and a retry could notify the device twice.
 */
export function fcmOutcome(code: string | undefined, message?: string): AttemptOutcome {
  const key = code ?? 'unknown';
  if (FCM_FINAL[key]) return done(FCM_FINAL[key], key);
  if (FCM_TRANSIENT.has(key)) return again(`${key}${message ? `: ${message}` : ''}`);
  return done('provider_error', `${key}${message ? `: ${message}` : ''}`);
}

/** A failure as @parse/node-apn reports it: an HTTP status and reason, or a transport error. */
export interface ApnsFailure {
  status?: number | string;
  response?: { reason?: string };
  error?: { message?: string };
}

const APNS_INVALID = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'MissingDeviceToken']);
const APNS_TRANSIENT_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * An APNs failure as an outcome. 410 (`Unregistered`, `ExpiredToken`) means the token is dead;
 * 429/5xx and connection failures are retried; a request timeout is final (it may have arrived).
 */
export function apnsOutcome(f: ApnsFailure): AttemptOutcome {
  const status = typeof f.status === 'number' ? f.status : Number(f.status);
  const reason = f.response?.reason;
  if (status === 410 || reason === 'Unregistered' || reason === 'ExpiredToken')
    return done('unregistered', reason ?? '410');
  if (reason && APNS_INVALID.has(reason)) return done('invalid_token', reason);
  if (APNS_TRANSIENT_STATUS.has(status)) return again(`${status} ${reason ?? ''}`.trim());
  if (Number.isFinite(status)) return done('provider_error', `${status} ${reason ?? ''}`.trim());
  const message = f.error?.message ?? 'unknown transport error';
  if (/timeout/i.test(message)) return done('provider_error', message);
  return again(message);
}

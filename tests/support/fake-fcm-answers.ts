/** How the fake FCM answers for one token. */
export type FcmTokenAnswer = 'unregistered' | 'invalid' | 'sender-mismatch';

/**
 * How the fake answers for a whole project: an outage (HTTP 500 INTERNAL), slow answers, or a
 * quota exceeded (429 QUOTA_EXCEEDED with `Retry-After: <retryAfterSeconds>`) for its next `times`
 * messages, then normal answers again.
 */
export type FcmProjectAnswer =
  { kind: 'down' } | { kind: 'slow'; delayMs: number } | { kind: 'quota'; retryAfterSeconds: number; times: number };

const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

function fcmError(code: number, status: string, errorCode: string, message: string) {
  return { error: { code, message, status, details: [{ '@type': FCM_ERROR, errorCode }] } };
}

/** FCM HTTP v1's answer to one message, as Google sends it (status, JSON body, extra headers). */
export function fcmAnswer(
  project: string,
  id: number,
  projectAnswer: FcmProjectAnswer | undefined,
  tokenAnswer: FcmTokenAnswer | undefined,
): { status: number; json: unknown; headers?: Record<string, string> } {
  if (projectAnswer?.kind === 'down')
    return { status: 500, json: fcmError(500, 'INTERNAL', 'INTERNAL', 'Internal error encountered.') };
  if (projectAnswer?.kind === 'quota')
    return {
      status: 429,
      json: fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', 'Quota exceeded for quota metric.'),
      headers: { 'retry-after': String(projectAnswer.retryAfterSeconds) },
    };
  switch (tokenAnswer) {
    case 'unregistered':
      return { status: 404, json: fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.') };
    case 'invalid':
      return {
        status: 400,
        json: fcmError(
          400,
          'INVALID_ARGUMENT',
          'INVALID_ARGUMENT',
          'The registration token is not a valid FCM registration token',
        ),
      };
    case 'sender-mismatch':
      return {
        status: 403,
        json: fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH', 'SenderId mismatch'),
      };
    default:
      return { status: 200, json: { name: `projects/${project}/messages/${id}` } };
  }
}

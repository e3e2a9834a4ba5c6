import type { FcmBody } from '../domain/fcm-message';
import { again, done, fcmOutcome, type AttemptOutcome } from '../domain/outcome';
import { deliverWithRetries, type RetryPolicy } from '../domain/retry';
import type { Http2Origin } from './http2-origin';
import { jobLog, type JobResult } from './job-result';

/**
 * One slice of a send, as plain data (it crosses to a worker thread): one message to `tokens`
 * through one application's FCM session, with retries until `deadline`.
 */
export interface FcmJob {
  kind: 'fcm';
  /** The sender whose session carries it (each sender has its own, per lane). */
  sender: string;
  /** `/v1/projects/<project id>/messages:send`. */
  path: string;
  /** `Bearer <OAuth access token>`, fetched by the sender. */
  authorization: string;
  body: FcmBody;
  tokens: string[];
  /** Epoch ms. */
  deadline: number;
  retry: RetryPolicy;
  attemptTimeoutMs: number;
}

/**
 * Sends a job's message to each of its tokens as its own HTTP/2 stream on `origin` (FCM HTTP v1
 * has no batch call: firebase-admin's `sendEach` does the same, on a session of its own per call),
 * retries what is transient, and maps every answer through fcmOutcome. An attempt that timed out
 * is final (the message may have arrived); a connection that failed is retried.
 */
export async function runFcmJob(origin: Http2Origin, job: FcmJob): Promise<JobResult> {
  const headers = {
    ':method': 'POST',
    ':path': job.path,
    authorization: job.authorization,
    'content-type': 'application/json; charset=UTF-8',
  };
  const targets = job.tokens.map((token, i) => ({ device_sid: String(i), token }));
  const log = jobLog();
  const attempt = async (pending: typeof targets): Promise<Map<string, AttemptOutcome>> => {
    const outcomes = new Map<string, AttemptOutcome>();
    await Promise.all(
      pending.map(async (t) => {
        const a = await origin.post(
          headers,
          job.body.prefix + JSON.stringify(t.token) + job.body.suffix,
          job.attemptTimeoutMs,
        );
        outcomes.set(
          t.device_sid,
          'failed' in a
            ? a.failed === 'timeout'
              ? done('provider_error', a.detail)
              : again(a.detail)
            : fcmOutcome(a.status, a.body, a.retryAfter),
        );
      }),
    );
    return outcomes;
  };
  const out = await deliverWithRetries(targets, attempt, job.retry, job.deadline, log);
  const results = job.tokens.map((_, i) => out.get(String(i)) ?? 'provider_error');
  return { results, retries: log.retries, failed: log.failed() };
}

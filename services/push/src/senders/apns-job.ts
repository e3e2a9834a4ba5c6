import type { OutgoingHttpHeaders } from 'node:http2';
import type { ApnsRequest } from '../domain/apns-request';
import { apnsOutcome, done, type AttemptOutcome } from '../domain/outcome';
import { deliverWithRetries, type RetryPolicy } from '../domain/retry';
import type { ApnsConnection } from './apns-origin';
import type { Http2Origin } from './http2-origin';
import { jobLog, type JobResult } from './job-result';

export type ApnsAuth =
  { kind: 'token'; key: string; keyId: string; teamId: string } | { kind: 'certificate'; cert: string; key: string };

/** One slice of an APNs send: one request to `tokens` (distinct) through one sender's session. */
export interface ApnsJob {
  kind: 'apns';
  sender: string;
  /** Where the sender's session goes and how it is authenticated (plain data: it crosses threads). */
  connection: ApnsConnection;
  /** `bearer <provider token>` (token auth, signed by the sender); absent with a client certificate. */
  authorization?: string;
  request: ApnsRequest;
  tokens: string[];
  /** Epoch ms. */
  deadline: number;
  retry: RetryPolicy;
  attemptTimeoutMs: number;
}

/**
 * The request headers of a job, in the order and spelling @parse/node-apn sent them (without the
 * path): `apns-priority`, then `apns-collapse-id`, `apns-expiration`, `apns-topic` and
 * `apns-push-type` when set, then the provider token.
 */
function apnsHeaders(job: ApnsJob): OutgoingHttpHeaders {
  const r = job.request;
  const headers: OutgoingHttpHeaders = {
    ':scheme': 'https',
    ':method': 'POST',
    ':authority': job.connection.host,
    'apns-priority': String(r.priority),
  };
  if (r.collapseId) headers['apns-collapse-id'] = r.collapseId;
  if (r.expiry !== undefined && r.expiry >= 0) headers['apns-expiration'] = String(r.expiry);
  if (r.topic) headers['apns-topic'] = r.topic;
  if (r.pushType) headers['apns-push-type'] = r.pushType;
  if (job.authorization) headers.authorization = job.authorization;
  return headers;
}

/** APNs' `reason` in an error body (`{"reason":"BadDeviceToken"}`); undefined when there is none. */
function reasonOf(body: string): string | undefined {
  if (!body) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  return typeof json === 'object' && json !== null && 'reason' in json && typeof json.reason === 'string'
    ? json.reason
    : undefined;
}

/**
 * Sends a job's notification to each of its tokens as its own HTTP/2 stream (`POST
 * /3/device/<token>`) on `origin`, the body serialized once, and maps every answer through
 * apnsOutcome as node-apn's failures were: 200 is a success; 410, BadDeviceToken and the like are
 * final; 429, 5xx and connection failures are retried with backoff; a request that timed out is
 * final (it may have arrived); the rest (403 and other refusals) is `provider_error`.
 */
export async function runApnsJob(origin: Http2Origin, job: ApnsJob): Promise<JobResult> {
  const headers = apnsHeaders(job);
  const body = Buffer.from(JSON.stringify(job.request.payload));
  const targets = job.tokens.map((token, i) => ({ device_sid: String(i), token }));
  let expiredToken = false;
  const attempt = async (pending: typeof targets): Promise<Map<string, AttemptOutcome>> => {
    const outcomes = new Map<string, AttemptOutcome>();
    await Promise.all(
      pending.map(async (t) => {
        const a = await origin.post({ ...headers, ':path': `/3/device/${t.token}` }, body, job.attemptTimeoutMs);
        if ('failed' in a) {
          outcomes.set(
            t.device_sid,
            a.failed === 'timeout' ? done('provider_error', a.detail) : apnsOutcome({ error: { message: a.detail } }),
          );
          return;
        }
        if (a.status >= 200 && a.status < 300) {
          outcomes.set(t.device_sid, done('success'));
          return;
        }
        const reason = reasonOf(a.body);
        if (a.status === 403 && reason === 'ExpiredProviderToken') expiredToken = true;
        outcomes.set(
          t.device_sid,
          apnsOutcome({
            status: a.status,
            ...(reason ? { response: { reason } } : {}),
            ...(a.retryAfter ? { retryAfter: a.retryAfter } : {}),
          }),
        );
      }),
    );
    return outcomes;
  };
  const log = jobLog();
  const out = await deliverWithRetries(targets, attempt, job.retry, job.deadline, log);
  const results = job.tokens.map((_, i) => out.get(String(i)) ?? 'provider_error');
  return { results, retries: log.retries, failed: log.failed(), ...(expiredToken ? { expiredToken } : {}) };
}

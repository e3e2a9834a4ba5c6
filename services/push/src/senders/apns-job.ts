import { Notification, Provider } from '@parse/node-apn';
import type { ApnsRequest } from '../domain/apns-request';
import { apnsOutcome, done, type AttemptOutcome } from '../domain/outcome';
import { deliverWithRetries, type RetryPolicy } from '../domain/retry';
import { jobLog, type JobResult } from './send-job';
import type { HostPort } from './sender';

export type ApnsAuth =
  { kind: 'token'; key: string; keyId: string; teamId: string } | { kind: 'certificate'; cert: string; key: string };

/** What one application's APNs client for one environment is built from (plain data: it crosses threads). */
export interface ApnsClientOptions {
  auth: ApnsAuth;
  production: boolean;
  /** A local APNs server instead of Apple's host for this environment. */
  endpoint?: HostPort;
  ca?: string;
  insecure: boolean;
  attemptTimeoutMs: number;
}

/** One slice of an APNs send: one request to `tokens` (distinct) through one sender's client. */
export interface ApnsJob {
  kind: 'apns';
  sender: string;
  client: ApnsClientOptions;
  request: ApnsRequest;
  tokens: string[];
  /** Epoch ms. */
  deadline: number;
  retry: RetryPolicy;
}

/**
 * One @parse/node-apn Provider: one HTTP/2 connection, kept open and reused across sends, requests
 * multiplexed on it. node-apn's own retries (immediate, no backoff) are off; the job's retry loop
 * retries 429/5xx and connection failures with backoff instead. Throws on options it cannot use.
 */
export function apnsProvider(o: ApnsClientOptions): Provider {
  const auth =
    o.auth.kind === 'token'
      ? { token: { key: o.auth.key, keyId: o.auth.keyId, teamId: o.auth.teamId } }
      : { cert: o.auth.cert, key: o.auth.key };
  return new Provider({
    ...auth,
    production: o.production,
    ...(o.endpoint ? { address: o.endpoint.host, port: o.endpoint.port } : {}),
    ...(o.ca ? { ca: [o.ca] } : {}),
    ...(o.insecure ? { rejectUnauthorized: false } : {}),
    requestTimeout: o.attemptTimeoutMs,
    connectionRetryLimit: 0,
  });
}

/** Sends a job's notification to each of its tokens through `provider`, retrying what is transient. */
export async function runApnsJob(provider: Provider, job: ApnsJob): Promise<JobResult> {
  const { request } = job;
  const note = new Notification();
  note.rawPayload = request.payload;
  note.pushType = request.pushType;
  note.priority = request.priority;
  if (request.expiry !== undefined) note.expiry = request.expiry;
  if (request.collapseId !== undefined) note.collapseId = request.collapseId;
  if (request.topic !== undefined) note.topic = request.topic;
  const indexOf = new Map(job.tokens.map((t, i) => [t, String(i)]));
  const targets = job.tokens.map((token, i) => ({ device_sid: String(i), token }));
  const attempt = async (pending: typeof targets): Promise<Map<string, AttemptOutcome>> => {
    const outcomes = new Map<string, AttemptOutcome>();
    const { sent, failed } = await provider.send(
      note,
      pending.map((t) => t.token),
    );
    for (const s of sent) outcomes.set(indexOf.get(s.device) ?? '', done('success'));
    for (const f of failed) outcomes.set(indexOf.get(f.device) ?? '', apnsOutcome(f));
    return outcomes;
  };
  const log = jobLog();
  const out = await deliverWithRetries(targets, attempt, job.retry, job.deadline, log);
  const results = job.tokens.map((_, i) => out.get(String(i)) ?? 'provider_error');
  return { results, retries: log.retries, failed: log.failed() };
}

import http from 'node:http';
import https from 'node:https';
import { AddressNotAllowedError, ADDRESS_NOT_ALLOWED } from '../net/address-not-allowed-error';
import { assertPublicUrl } from '../net/check-outbound-url';
import { outboundAgents } from '../net/guarded-agents';
import { inSpan, SpanKind } from '../tracing/span-helpers';
import { SIGNATURE_HEADER, signCallback } from './callback-signature';

export interface SignedCallbackRequest {
  url: string;
  method: 'POST' | 'GET';
  fields: Record<string, unknown>;
  /** The HMAC key (a Voicemail endpoint's `properties.password`, a record export's signing key). */
  key: string;
  /** `X-Patchbay-Event`: what happened (`voicemail.recording`, `record_export.completed`). */
  event: string;
  /** `X-Patchbay-Event-Id`, when the event has one: the same in every attempt, so receivers drop repeats. */
  eventId?: string;
  /** The span's name (`endpoint callback`, `records export callback`). */
  spanName: string;
}

/** How an attempt went: delivered, failed (try again later), or refused (never try again). */
export type SendOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'failed'; reason: string; status?: number }
  | { kind: 'refused'; reason: string };

/**
 * One attempt at a signed callback: `POST` with the fields as a JSON body, or `GET` with them as
 * query parameters; signed (callback-signature.ts); at most `timeoutMs`; redirects are not
 * followed. Unless `allowPrivate`, the platform's outbound-address guard refuses a loopback,
 * private, link-local… address (however spelled, or a name resolving to one) before connecting, and
 * again on the address the socket actually connects to, so a name that resolves differently the
 * second time cannot slip past. A refusal has one fixed reason (ADDRESS_NOT_ALLOWED).
 */
export function sendSignedCallback(
  req: SignedCallbackRequest,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendOutcome> {
  // A span per attempt, with its outcome (never the URL: it is the partner's, and may hold a secret).
  return inSpan(
    req.spanName,
    { kind: SpanKind.CLIENT, attributes: { 'http.request.method': req.method } },
    async (span) => {
      const outcome = await attempt(req, opts);
      span.setAttribute('patchbay.callback.outcome', outcome.kind);
      if (outcome.kind === 'delivered') span.setAttribute('http.response.status_code', outcome.status);
      return outcome;
    },
  );
}

async function attempt(
  req: SignedCallbackRequest,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendOutcome> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { kind: 'refused', reason: 'callback_url is not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { kind: 'refused', reason: `callback_url must be http or https (got ${url.protocol})` };
  if (!opts.allowPrivate) {
    try {
      await assertPublicUrl(url);
    } catch (err) {
      if (err instanceof AddressNotAllowedError) return { kind: 'refused', reason: ADDRESS_NOT_ALLOWED };
      throw err;
    }
  }
  const unix = Math.floor(Date.now() / 1000);
  let body = '';
  if (req.method === 'GET') {
    for (const [k, v] of Object.entries(req.fields))
      url.searchParams.set(k, v === null || v === undefined ? '' : String(v));
  } else {
    body = JSON.stringify(req.fields);
  }
  const signed = req.method === 'GET' ? url.search.replace(/^\?/, '') : body;
  const headers: Record<string, string> = {
    'User-Agent': 'Patchbay-Callbacks/1',
    'X-Patchbay-Event': req.event,
    ...(req.eventId ? { 'X-Patchbay-Event-Id': req.eventId } : {}),
    [SIGNATURE_HEADER]: signCallback(req.key, signed, unix),
    ...(req.method === 'POST'
      ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }
      : {}),
  };
  const agents = outboundAgents({ allowPrivate: opts.allowPrivate, keepAlive: false });
  try {
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    const status = await exchange(url, req.method, headers, body, opts.timeoutMs, agent);
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    return {
      kind: 'failed',
      status,
      reason: status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`,
    };
  } catch (err) {
    if (AddressNotAllowedError.within(err)) return { kind: 'refused', reason: ADDRESS_NOT_ALLOWED };
    return { kind: 'failed', reason: describe(err) };
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
}

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agent: http.Agent,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method, headers, timeout: timeoutMs, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** In plain words; read by shape, not `instanceof Error` (an error of another realm is one too). */
function describe(err: unknown): string {
  const e = typeof err === 'object' && err !== null ? err : {};
  const code = 'code' in e ? e.code : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ECONNRESET') return 'connection reset';
  return 'message' in e && typeof e.message === 'string' ? e.message : String(err);
}

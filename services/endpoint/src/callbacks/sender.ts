import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../domain/callback-address';
import { SIGNATURE_HEADER, signCallback } from '../domain/callback-signature';

export interface CallbackRequest {
  url: string;
  method: 'POST' | 'GET';
  fields: Record<string, unknown>;
  /** The HMAC key (the Voicemail endpoint's `properties.password`). */
  key: string;
}

/** How an attempt went: delivered, failed (try again later), or refused (never try again). */
export type SendOutcome =
  { kind: 'delivered'; status: number } | { kind: 'failed'; reason: string } | { kind: 'refused'; reason: string };

class Refused extends Error {}

/**
 * One attempt at a Voicemail callback: `POST` with the fields as a JSON body, or `GET` with them
 * as query parameters; signed (domain/callback-signature.ts); at most `timeoutMs`; redirects are
 * not followed. Unless `allowPrivate`, an address in a private range is refused — checked on the
 * address actually connected to (the name is resolved once, in the connection's own lookup), so a
 * name that resolves differently the second time cannot slip past.
 */
export async function sendCallback(
  req: CallbackRequest,
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate && isIP(host) && isPrivateAddress(host))
    return { kind: 'refused', reason: `${host} is a private, loopback or link-local address` };
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
    'X-Patchbay-Event': 'voicemail.recording',
    [SIGNATURE_HEADER]: signCallback(req.key, signed, unix),
    ...(req.method === 'POST'
      ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }
      : {}),
  };
  const lookup: LookupFunction | undefined = opts.allowPrivate ? undefined : guardedLookup;
  try {
    const status = await exchange(url, req.method, headers, body, opts.timeoutMs, lookup);
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    return {
      kind: 'failed',
      reason: status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`,
    };
  } catch (err) {
    if (err instanceof Refused) return { kind: 'refused', reason: err.message };
    return { kind: 'failed', reason: describe(err) };
  }
}

/** dns.lookup, refusing a name that resolves to any private address. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad)
      return callback(
        new Refused(`${hostname} resolves to ${bad.address}, a private, loopback or link-local address`),
        '',
        0,
      );
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  lookup?: LookupFunction,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method, headers, lookup, timeout: timeoutMs, agent: false }, (res) => {
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

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (e.code === 'ECONNRESET') return 'connection reset';
  return e.message ?? String(err);
}

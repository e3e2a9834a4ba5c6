import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'X-Patchbay-Signature';

/**
 * Signs a callback the way a receiver can check it (docs/media-plane.md; the same for Voicemail
 * callbacks and record exports): HMAC-SHA256 keyed with the callback's key, over `<t>.<content>`
 * where `content` is the JSON body of a POST or the query string of a GET, exactly as sent. The
 * timestamp lets a receiver refuse replays of old callbacks.
 */
export function signCallback(key: string, content: string, unixSeconds: number): string {
  const mac = createHmac('sha256', key).update(`${unixSeconds}.${content}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** What a receiver does (used by the tests): true when `header` signs `content` with `key`. */
export function verifyCallback(key: string, content: string, header: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || typeof parts.v1 !== 'string') return false;
  const expected = Buffer.from(signCallback(key, content, t).split('v1=')[1], 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Delay before the attempt after `attempts` failed ones: `baseMs` doubling, at most ten minutes. */
export function nextAttemptDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 600_000);
}

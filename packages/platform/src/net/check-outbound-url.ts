import dns from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './address-ranges';
import { AddressNotAllowedError } from './address-not-allowed-error';

/**
 * Refuses, before any connection, a URL whose host is a forbidden address (address-ranges.ts) or a
 * name that resolves to one: rejects with AddressNotAllowedError. The host is read as WHATWG URL
 * reads it, so `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` are 127.0.0.1 and `[::ffff:127.0.0.1]`
 * is the IPv4-mapped loopback. A name that does not resolve is not refused here (its connection
 * fails on its own), nor one whose lookup takes longer than `lookupTimeoutMs` (default 3 s: a request
 * waiting on it must still be answered in time); the connect-time check (GuardedHttpAgent) runs again
 * on whatever it resolves to then. A string that is not a URL is the caller's to refuse: it rejects
 * with a TypeError.
 */
export async function assertPublicUrl(url: string | URL, opts: { lookupTimeoutMs?: number } = {}): Promise<void> {
  const host = (typeof url === 'string' ? new URL(url) : url).hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new AddressNotAllowedError(host);
  if (isIP(host)) {
    if (isForbiddenAddress(host)) throw new AddressNotAllowedError(host);
    return;
  }
  let addresses: Array<{ address: string }>;
  let timer: NodeJS.Timeout | undefined;
  try {
    addresses = await Promise.race([
      dns.lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('lookup timed out')), opts.lookupTimeoutMs ?? 3000);
      }),
    ]);
  } catch {
    return;
  } finally {
    clearTimeout(timer);
  }
  if (addresses.some((a) => isForbiddenAddress(a.address))) throw new AddressNotAllowedError(host);
}

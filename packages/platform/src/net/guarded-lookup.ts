import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isForbiddenAddress } from './address-ranges';
import { AddressNotAllowedError } from './address-not-allowed-error';

/**
 * `dns.lookup` for sockets (the `lookup` option of net/tls/http): resolves the name and fails with
 * AddressNotAllowedError when ANY address it resolves to is forbidden (address-ranges.ts). Used at
 * connect time, it checks the very answer the socket connects to, so a name that resolves to a public
 * address when checked and to 127.0.0.1 a moment later (DNS rebinding) is still refused.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses;
    if (list.length === 0 || list.some((a) => isForbiddenAddress(a.address)))
      return callback(new AddressNotAllowedError(hostname), '', 0);
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

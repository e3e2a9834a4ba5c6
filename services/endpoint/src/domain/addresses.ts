import { isIP } from 'node:net';
import {
  BadRequestError,
  errorItem,
  type EndpointAddress,
  type EndpointAddressInput,
  type ErrorItem,
} from '@patchbay/contracts';

/** The platform's SIP port: default of `port` and of `dst_port`. */
export const SIP_PORT = 5060;
const DEFAULT_SUBNET_MASK = 32;
const OUTBOUND_MIN_SUBNET_MASK = 29;

/** A host name the way DNS allows it: dot-separated labels of letters, digits and inner hyphens. */
const HOSTNAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** An address with every default applied (docs/interface-notes.md, Voice endpoints: address defaults). */
export function normalizeAddress(a: EndpointAddressInput): EndpointAddress {
  return {
    direction: a.direction ?? 'any',
    dst_port: a.dst_port === undefined ? SIP_PORT : a.dst_port,
    ip: a.ip.trim(),
    location_sid: a.location_sid ?? null,
    port: a.port ?? SIP_PORT,
    priority: a.priority ?? 0,
    sip_password: a.sip_password ?? null,
    sip_username: a.sip_username ?? null,
    srtp: a.srtp ?? false,
    subnet_mask: a.subnet_mask ?? DEFAULT_SUBNET_MASK,
    transport: a.transport ?? 'udp',
  };
}

/** `ip` must be an IPv4 or IPv6 address or a host name: anything else is a malformed body (400). */
export function assertAddressFormat(addresses: readonly EndpointAddressInput[] | undefined): void {
  const bad = (addresses ?? []).flatMap((a, i) =>
    isIP(a.ip.trim()) !== 0 || HOSTNAME.test(a.ip.trim())
      ? []
      : [errorItem('must be an IPv4 or IPv6 address or a host name', `addresses.${i}.ip`)],
  );
  if (bad.length > 0) throw new BadRequestError({ message: 'validation error', errors: bad });
}

/**
 * Object rules of addresses (422 items): `subnet_mask` is changeable only on outbound addresses,
 * and there it must be 29 to 32.
 */
export function addressViolations(addresses: readonly EndpointAddress[]): ErrorItem[] {
  const out: ErrorItem[] = [];
  addresses.forEach((a, i) => {
    const field = `addresses.${i}.subnet_mask`;
    if (a.direction !== 'outbound' && a.subnet_mask !== DEFAULT_SUBNET_MASK) {
      out.push(
        errorItem(
          `subnet_mask can be changed only when direction is outbound (it is ${DEFAULT_SUBNET_MASK} otherwise)`,
          field,
        ),
      );
    } else if (a.direction === 'outbound' && a.subnet_mask < OUTBOUND_MIN_SUBNET_MASK) {
      out.push(errorItem(`subnet_mask of an outbound address must be from ${OUTBOUND_MIN_SUBNET_MASK} to 32`, field));
    }
  });
  return out;
}

/** One IP and port as the uniqueness key: host names compare case-insensitively, IPv6 in brackets. */
export function ipPortKey(ip: string, port: number): string {
  const host = ip.trim().toLowerCase().replace(/\.$/, '');
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The keys an endpoint holds in the `open_ip_keys` unique index: one per distinct IP and port of
 * its addresses while `auth_required` is false, and none otherwise — `undefined`, so the field is
 * absent and the sparse index leaves the endpoint out (an empty array would still be indexed by
 * MongoDB, as one `undefined` key that two endpoints would then share).
 */
export function openIpKeys(endpoint: {
  auth_required: boolean;
  addresses: readonly EndpointAddress[];
}): string[] | undefined {
  if (endpoint.auth_required || endpoint.addresses.length === 0) return undefined;
  return [...new Set(endpoint.addresses.map((a) => ipPortKey(a.ip, a.port)))];
}

import { BlockList, isIP } from 'node:net';

/**
 * The addresses Patchbay must never connect to on a partner's behalf (an SSRF guard): this machine
 * and the networks behind it. IANA's special-purpose registries, for IPv4 and IPv6: unspecified,
 * loopback, private, carrier-grade NAT, link-local (cloud metadata at 169.254.169.254), IETF protocol
 * assignments, documentation and benchmarking ranges, multicast, reserved and broadcast; for IPv6 also
 * unique-local, site-local, discard-only, the local-use NAT64 prefix and ORCHID. An IPv6 address that
 * carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) is judged by the IPv4 address inside it.
 */
const V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  V4.addSubnet(net, bits, 'ipv4');

const V6 = new BlockList();
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  V6.addSubnet(net, bits, 'ipv6');

/**
 * Whether `address` (a literal IP address, IPv6 without brackets) may not be connected to. Anything
 * that is not a plain address (a name, a zone-scoped IPv6 address such as `fe80::1%eth0`) counts as
 * forbidden: this check never guesses.
 */
export function isForbiddenAddress(address: string): boolean {
  if (address.includes('%')) return true;
  const family = isIP(address);
  if (family === 4) return V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const words = ipv6Words(address);
  if (!words) return true;
  const inner = embeddedIPv4(words);
  if (inner !== undefined) return V4.check(inner, 'ipv4');
  return V6.check(address, 'ipv6');
}

/** The IPv4 address an IPv6 address carries by one of the standard embeddings, if it does. */
function embeddedIPv4(w: number[]): string | undefined {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6], w[7]); // ::ffff:a.b.c.d (IPv4-mapped)
  if (zeros(0, 6) && (w[6] !== 0 || w[7] > 1)) return v4(w[6], w[7]); // ::a.b.c.d (IPv4-compatible)
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6], w[7]); // 64:ff9b::/96 (NAT64)
  if (w[0] === 0x2002) return v4(w[1], w[2]); // 2002::/16 (6to4)
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part included); undefined if malformed. */
function ipv6Words(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const words = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  return words.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffff) ? undefined : words;
}

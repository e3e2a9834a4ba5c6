import { isForbiddenAddress } from '../../src/net/address-ranges';

test('loopback, private, link-local, CGNAT, unique-local, multicast, unspecified and reserved are forbidden', () => {
  const forbidden = [
    '127.0.0.1',
    '127.8.9.1',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'fd00::1',
    'fc12::1',
    'ff02::1',
    '64:ff9b:1::1',
    '2001:db8::1',
    '100::1',
    'not-an-ip',
    '',
  ];
  for (const a of forbidden) expect({ a, forbidden: isForbiddenAddress(a) }).toEqual({ a, forbidden: true });
});

test('an IPv6 address carrying an IPv4 one is judged by it: mapped, compatible, NAT64, 6to4', () => {
  const forbidden = [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:c0a8:101::1',
  ];
  const allowed = ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];
  for (const a of forbidden) expect({ a, forbidden: isForbiddenAddress(a) }).toEqual({ a, forbidden: true });
  for (const a of allowed) expect({ a, forbidden: isForbiddenAddress(a) }).toEqual({ a, forbidden: false });
});

test('public addresses are allowed', () => {
  for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:4860:4860::8888'])
    expect({ a, forbidden: isForbiddenAddress(a) }).toEqual({ a, forbidden: false });
});

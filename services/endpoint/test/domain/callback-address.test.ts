import { isPrivateAddress } from '../../src/domain/callback-address';
import { nextAttemptDelayMs, signCallback, verifyCallback } from '../../src/domain/callback-signature';

test('private, loopback, link-local and reserved addresses are refused; public ones are not', () => {
  const refused = [
    '127.0.0.1',
    '127.8.9.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc12::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
  for (const a of refused) expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: true });
  for (const a of allowed) expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: false });
});

test('a signature verifies with its key and content only', () => {
  const header = signCallback('k3y', '{"a":1}', 1_700_000_000);
  expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
  expect(verifyCallback('k3y', '{"a":1}', header)).toBe(true);
  expect(verifyCallback('k3y', '{"a":2}', header)).toBe(false);
  expect(verifyCallback('other', '{"a":1}', header)).toBe(false);
  expect(verifyCallback('k3y', '{"a":1}', header.replace('t=1700000000', 't=1700000001'))).toBe(false);
  expect(verifyCallback('k3y', '{"a":1}', 'garbage')).toBe(false);
});

test('retries back off: doubling from the base, at most ten minutes', () => {
  expect([1, 2, 3, 4].map((n) => nextAttemptDelayMs(n, 5000))).toEqual([5000, 10000, 20000, 40000]);
  expect(nextAttemptDelayMs(30, 5000)).toBe(600_000);
});

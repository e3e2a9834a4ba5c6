import { BadRequestError } from '@patchbay/contracts';
import {
  addressViolations,
  assertAddressFormat,
  ipPortKey,
  normalizeAddress,
  openIpKeys,
} from '../../src/domain/addresses';

describe('normalizeAddress', () => {
  test('applies every address default', () => {
    expect(normalizeAddress({ ip: '10.0.0.1' })).toEqual({
      direction: 'any',
      dst_port: 5060,
      ip: '10.0.0.1',
      location_sid: null,
      port: 5060,
      priority: 0,
      sip_password: null,
      sip_username: null,
      srtp: false,
      subnet_mask: 32,
      transport: 'udp',
    });
  });

  test('keeps given values, including an explicit null dst_port', () => {
    const a = normalizeAddress({
      ip: ' sip.example.com ',
      port: 5080,
      dst_port: null,
      direction: 'outbound',
      subnet_mask: 30,
      transport: 'tls',
      srtp: true,
      priority: 3,
    });
    expect(a).toMatchObject({
      ip: 'sip.example.com',
      port: 5080,
      dst_port: null,
      direction: 'outbound',
      subnet_mask: 30,
      transport: 'tls',
      srtp: true,
      priority: 3,
    });
  });
});

describe('assertAddressFormat', () => {
  test.each(['10.1.2.3', '2001:db8::1', 'sip.example.com', 'localhost', 'a-b.c1.example.'])('accepts %s', (ip) => {
    expect(() => assertAddressFormat([{ ip }])).not.toThrow();
  });

  test.each(['not an ip', 'http://x', '-bad.example.com', 'a..b', '  '])(
    'refuses %j with a 400 naming the address',
    (ip) => {
      try {
        assertAddressFormat([{ ip: '10.0.0.1' }, { ip }]);
        throw new Error('expected a 400');
      } catch (err) {
        expect(err).toBeInstanceOf(BadRequestError);
        expect((err as BadRequestError).errors[0].field).toBe('addresses.1.ip');
      }
    },
  );
});

describe('addressViolations', () => {
  const addr = (over: Partial<ReturnType<typeof normalizeAddress>>) => ({
    ...normalizeAddress({ ip: '10.0.0.1' }),
    ...over,
  });

  test('subnet_mask other than 32 only on outbound addresses', () => {
    expect(addressViolations([addr({ direction: 'inbound', subnet_mask: 30 })])).toEqual([
      expect.objectContaining({ field: 'addresses.0.subnet_mask' }),
    ]);
    expect(addressViolations([addr({ direction: 'any', subnet_mask: 32 })])).toEqual([]);
  });

  test('outbound subnet_mask must be 29 to 32', () => {
    expect(addressViolations([29, 30, 31, 32].map((m) => addr({ direction: 'outbound', subnet_mask: m })))).toEqual([]);
    expect(
      addressViolations([
        addr({ direction: 'outbound', subnet_mask: 30 }),
        addr({ direction: 'outbound', subnet_mask: 28 }),
      ]),
    ).toEqual([expect.objectContaining({ field: 'addresses.1.subnet_mask' })]);
  });
});

describe('open IP keys', () => {
  const a = (ip: string, port = 5060) => normalizeAddress({ ip, port });

  test('one key per distinct IP and port while auth_required is false', () => {
    expect(
      openIpKeys({
        auth_required: false,
        addresses: [a('10.0.0.1'), a('10.0.0.1'), a('10.0.0.1', 5080), a('SIP.Example.com')],
      }),
    ).toEqual(['10.0.0.1:5060', '10.0.0.1:5080', 'sip.example.com:5060']);
  });

  test('none (undefined, so the field is absent) with auth_required or no address', () => {
    expect(openIpKeys({ auth_required: true, addresses: [a('10.0.0.1')] })).toBeUndefined();
    expect(openIpKeys({ auth_required: false, addresses: [] })).toBeUndefined();
  });

  test('IPv6 keys are bracketed so the port stays apart', () => {
    expect(ipPortKey('2001:DB8::1', 5060)).toBe('[2001:db8::1]:5060');
    expect(ipPortKey('host.example.', 5060)).toBe('host.example:5060');
  });
});

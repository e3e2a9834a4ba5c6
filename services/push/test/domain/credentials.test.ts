import { X509Certificate } from 'node:crypto';
import { CredentialError, decodeGoogleCredentials, openP12, readP8 } from '../../src/domain/credentials';
// Test-time key and certificate generation shared with the API tests.
import { fakeApnsP12, fakeApnsTokenKey, fakeServiceAccount } from '../../../../tests/support/fake-credentials';

describe('decodeGoogleCredentials', () => {
  const sa = fakeServiceAccount('unit-project');

  test('a Base64 service-account file decodes (standard or URL-safe alphabet, line breaks allowed)', () => {
    expect(decodeGoogleCredentials(sa.base64).project_id).toBe('unit-project');
    const urlSafe = Buffer.from(JSON.stringify(sa.json)).toString('base64url');
    expect(decodeGoogleCredentials(urlSafe).client_email).toBe(sa.clientEmail);
    expect(decodeGoogleCredentials(sa.base64.replace(/(.{76})/g, '$1\n')).project_id).toBe('unit-project');
  });

  test.each([
    ['raw JSON', JSON.stringify({ a: 1 })],
    ['Base64 of text', Buffer.from('hello').toString('base64')],
    ['no client_email', Buffer.from(JSON.stringify({ project_id: 'p', private_key: 'k' })).toString('base64')],
    [
      'a key that does not open',
      Buffer.from(
        JSON.stringify({
          project_id: 'p',
          client_email: 'e',
          private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
        }),
      ).toString('base64'),
    ],
  ])('%s is refused', (_what, value) => {
    expect(() => decodeGoogleCredentials(value)).toThrow(CredentialError);
  });

  test('the message never echoes the credential', () => {
    try {
      decodeGoogleCredentials(Buffer.from('{"private_key": "SECRET"}').toString('base64'));
    } catch (err) {
      expect((err as Error).message).not.toContain('SECRET');
    }
  });
});

describe('openP12', () => {
  test.each([false, true])(
    'opens a .p12 (legacy RC2: %s) into PEM certificate and key with its expiration',
    (legacy) => {
      const p12 = fakeApnsP12({ password: 'pw', bundleId: 'com.example.unit', days: 10, legacy });
      const opened = openP12(p12.base64, 'pw');
      expect(opened.expiration.toISOString()).toBe(p12.notAfter.toISOString());
      expect(new X509Certificate(opened.certPem).subject).toContain('com.example.unit');
      expect(opened.keyPem).toContain('PRIVATE KEY');
    },
  );

  test('a wrong password or a file that is not PKCS#12 is refused', () => {
    const p12 = fakeApnsP12({ password: 'pw', bundleId: 'com.example.unit' });
    expect(() => openP12(p12.base64, 'nope')).toThrow(/does not open with apns_p12_password/);
    expect(() => openP12(Buffer.from('junk').toString('base64'), 'pw')).toThrow(/not a PKCS#12/);
  });
});

describe('readP8', () => {
  const key = fakeApnsTokenKey();
  test('PEM text, Base64 of the PEM, or Base64 of the DER', () => {
    expect(readP8(key.p8)).toBe(key.p8.trim() + '\n');
    expect(readP8(Buffer.from(key.p8).toString('base64'))).toContain('BEGIN PRIVATE KEY');
    const der = key.p8.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(readP8(der)).toContain('BEGIN PRIVATE KEY');
  });
  test('an RSA key or junk is refused', () => {
    expect(() => readP8(fakeServiceAccount('x').json.private_key)).toThrow(CredentialError);
    expect(() => readP8('not a key')).toThrow(CredentialError);
  });
});

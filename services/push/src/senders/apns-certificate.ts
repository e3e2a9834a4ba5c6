import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';

/** Apple's extensions of an APNs client certificate: valid for the sandbox, for production. */
const APPLE_PUSH_SANDBOX_OID = '1.2.840.113635.100.6.3.1';
const APPLE_PUSH_PRODUCTION_OID = '1.2.840.113635.100.6.3.2';

/** The DER encoding (tag, length, content) of an object identifier. */
export function derOid(oid: string): Buffer {
  const [a, b, ...rest] = oid.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return Buffer.from([0x06, bytes.length, ...bytes]);
}

/**
 * Checks an APNs client certificate as @parse/node-apn did before it would send with one: the key
 * is the certificate's, the certificate has not expired, and it carries Apple's extension for the
 * environment — production only for Apple's production host; any other address (APNS_ENDPOINT)
 * counts as the sandbox. Throws an Error saying what is wrong.
 */
export function checkApnsCertificate(cert: string, key: string, appleProduction: boolean, now = Date.now()): void {
  createSecureContext({ cert, key });
  const x509 = new X509Certificate(cert);
  if (!x509.checkPrivateKey(createPrivateKey(key))) throw new Error('certificate and key do not match');
  const notAfter = new Date(x509.validTo);
  if (notAfter.getTime() < now) throw new Error(`certificate has expired: ${notAfter.toJSON()}`);
  // Node lists no custom extensions: the extension's OID is looked for in the certificate's DER.
  const oid = derOid(appleProduction ? APPLE_PUSH_PRODUCTION_OID : APPLE_PUSH_SANDBOX_OID);
  if (!x509.raw.includes(oid))
    throw new Error(`certificate does not support configured environment, production: ${appleProduction}`);
}

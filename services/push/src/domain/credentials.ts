import { isJsonObject } from '@patchbay/platform';
import { createPrivateKey } from 'node:crypto';
import forge from 'node-forge';

/** A credential that does not open; `message` says why, without echoing the secret. */
export class CredentialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialError';
  }
}

/** The fields of a Google service-account key file that FCM needs (the rest is kept as given). */
export interface ServiceAccount extends Record<string, unknown> {
  project_id: string;
  client_email: string;
  private_key: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Strict Base64 (standard or URL-safe alphabet, whitespace ignored); throws on anything else. */
export function decodeBase64(value: string, what: string): Buffer {
  const compact = value.replace(/\s+/g, '');
  if (compact.length === 0 || !BASE64.test(compact)) throw new CredentialError(`${what} is not Base64`);
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

/**
 * `google_credentials`: Base64 of a service-account JSON file with `project_id`, `client_email`
 * and a `private_key` that opens. Throws CredentialError otherwise.
 */
export function decodeGoogleCredentials(value: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(decodeBase64(value, 'google_credentials').toString('utf8'));
  } catch (err) {
    if (err instanceof CredentialError) throw err;
    throw new CredentialError('google_credentials does not decode to JSON');
  }
  if (!isJsonObject(json)) throw new CredentialError('google_credentials does not decode to a JSON object');
  if (json.type !== undefined && json.type !== 'service_account')
    throw new CredentialError('google_credentials is not a service account key (type must be "service_account")');
  const { project_id, client_email, private_key } = json;
  const lacks = (key: string) => new CredentialError(`google_credentials lacks "${key}"`);
  if (typeof project_id !== 'string' || project_id.length === 0) throw lacks('project_id');
  if (typeof client_email !== 'string' || client_email.length === 0) throw lacks('client_email');
  if (typeof private_key !== 'string' || private_key.length === 0) throw lacks('private_key');
  try {
    createPrivateKey(private_key);
  } catch {
    throw new CredentialError('google_credentials has a private_key that is not a valid PEM key');
  }
  return { ...json, project_id, client_email, private_key };
}

/** A certificate and key taken out of a PKCS#12 file, as PEM (which every Node version opens). */
export interface OpenedP12 {
  certPem: string;
  keyPem: string;
  /** The certificate's `notAfter`. */
  expiration: Date;
}

/**
 * Opens `apns_p12` (Base64 of a .p12 file) with its password through node-forge, which also reads
 * the old RC2-encrypted files Node 20's OpenSSL refuses. Throws CredentialError when it does not
 * open or holds no certificate with its private key.
 */
export function openP12(value: string, password: string): OpenedP12 {
  const der = decodeBase64(value, 'apns_p12');
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der.toString('binary')), password);
  } catch (err) {
    const wrongPassword = /MAC could not be verified|Invalid password/i.test(
      err instanceof Error ? err.message : String(err),
    );
    throw new CredentialError(
      wrongPassword ? 'apns_p12 does not open with apns_p12_password' : 'apns_p12 is not a PKCS#12 file',
    );
  }
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [])
    .map((b) => b.cert)
    .filter((c): c is forge.pki.Certificate => !!c);
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const key = keyBags.map((b) => b.key).find((k) => !!k);
  if (!key || certs.length === 0) throw new CredentialError('apns_p12 holds no certificate with its private key');
  const rsaKey = key as forge.pki.rsa.PrivateKey;
  // The client certificate is the one whose public key matches the private key (a file may carry the chain too).
  const cert =
    certs.find((c) => {
      const pub = c.publicKey as forge.pki.rsa.PublicKey;
      return pub.n !== undefined && rsaKey.n !== undefined && pub.n.equals(rsaKey.n);
    }) ?? certs[0];
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(key),
    expiration: cert.validity.notAfter,
  };
}

/**
 * `apns_p8`: the token-signing key as PEM text, or its Base64 (PEM or DER). Returns PEM text of a
 * P-256 (EC) private key; throws CredentialError otherwise.
 */
export function readP8(value: string): string {
  let pem: string;
  if (value.includes('-----BEGIN')) {
    pem = value;
  } else {
    const raw = decodeBase64(value, 'apns_p8');
    const text = raw.toString('utf8');
    pem = text.includes('-----BEGIN')
      ? text
      : `-----BEGIN PRIVATE ` +
        `KEY-----\n${raw.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ` +
        `PRIVATE KEY-----\n`;
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ec') throw new Error('not EC');
  } catch {
    throw new CredentialError('apns_p8 is not a P-256 private key (a .p8 file, as PEM text or Base64)');
  }
  return pem.trim() + '\n';
}

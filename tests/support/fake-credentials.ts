import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Credentials generated at test time for the fake FCM and APNs servers: nothing secret is
 * checked in, and every run uses fresh keys. Certificates are made with the `openssl` CLI (the
 * same tool a developer would use to build a test .p12).
 */

/** A Google service-account key file (RSA key made here) as FCM's `google_credentials` wants it. */
export interface FakeServiceAccount {
  projectId: string;
  clientEmail: string;
  json: Record<string, string>;
  /** Base64 of the JSON file: the value of `google_credentials`. */
  base64: string;
  publicKey: KeyObject;
}

export function fakeServiceAccount(projectId: string): FakeServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = `patchbay-test@${projectId}.iam.gserviceaccount.com`;
  const json = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: String(Date.now()),
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  return { projectId, clientEmail, json, base64: Buffer.from(JSON.stringify(json)).toString('base64'), publicKey };
}

/** An APNs token-signing key (.p8, P-256) with its key and team IDs. */
export interface FakeApnsTokenKey {
  p8: string;
  keyId: string;
  teamId: string;
  publicKey: KeyObject;
}

export function fakeApnsTokenKey(): FakeApnsTokenKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const id = () => randomBytes(5).toString('hex').toUpperCase();
  return { p8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), keyId: id(), teamId: id(), publicKey };
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-fake-creds-'));
}

/**
 * A TLS certificate for a local fake at 127.0.0.1 (self-signed, so it is its own CA), also valid for
 * `hosts` (the fake FCM is `fcm.googleapis.com` and `oauth2.googleapis.com` to a client that trusts
 * this certificate). `caFile` is a PEM file to hand to Patchbay as APNS_CA or FCM_CA.
 */
export interface FakeTls {
  key: string;
  cert: string;
  caFile: string;
  dir: string;
}

export function fakeServerTls(hosts: string[] = []): FakeTls {
  const dir = scratch();
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    ['subjectAltName=IP:127.0.0.1', 'DNS:localhost', ...hosts.map((h) => `DNS:${h}`)].join(','),
  ]);
  return {
    key: fs.readFileSync(path.join(dir, 'server.key'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'server.crt'), 'utf8'),
    caFile: path.join(dir, 'server.crt'),
    dir,
  };
}

/** Apple's "Apple Push Notification service SSL Certificates (Sandbox)" extension. */
export const APPLE_SANDBOX_OID = '1.2.840.113635.100.6.3.1';

/**
 * An APNs client certificate as a .p12 (Base64): carries Apple's sandbox extension (node-apn
 * requires it for a non-Apple address) and the bundle ID in UID, like the ones Apple issues.
 * `legacy` makes an RC2-encrypted file of the kind Node 20's OpenSSL no longer opens;
 * `sandbox: false` leaves the extension out (a certificate not valid for the sandbox).
 */
export function fakeApnsP12(opts: {
  password: string;
  bundleId: string;
  days?: number;
  legacy?: boolean;
  sandbox?: boolean;
}): { base64: string; notAfter: Date } {
  const dir = scratch();
  try {
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'client.key',
      '-out',
      'client.crt',
      '-days',
      String(opts.days ?? 30),
      '-subj',
      `/UID=${opts.bundleId}/CN=Apple Development IOS Push Services: ${opts.bundleId}`,
      ...(opts.sandbox === false ? [] : ['-addext', `${APPLE_SANDBOX_OID}=DER:0500`]),
    ]);
    openssl(dir, [
      'pkcs12',
      '-export',
      ...(opts.legacy ? ['-legacy'] : []),
      '-in',
      'client.crt',
      '-inkey',
      'client.key',
      '-out',
      'client.p12',
      '-passout',
      `pass:${opts.password}`,
    ]);
    const endDate = execFileSync('openssl', ['x509', '-in', 'client.crt', '-noout', '-enddate'], { cwd: dir })
      .toString()
      .trim()
      .replace(/^notAfter=/, '');
    return { base64: fs.readFileSync(path.join(dir, 'client.p12')).toString('base64'), notAfter: new Date(endDate) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

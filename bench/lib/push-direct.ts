/**
 * The push bench's baselines: the provider SDKs called directly, the way a client that does not
 * use Patchbay sends — firebase-admin's `sendEachForMulticast` (HTTP/2, the transport it uses
 * against Google) and @parse/node-apn's Provider — both aimed at the local fakes.
 */
import fs from 'node:fs';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Notification, Provider } from '@parse/node-apn';
import { cert, deleteApp, initializeApp } from 'firebase-admin/app';
import { getMessaging } from 'firebase-admin/messaging';
import { FCM_ORIGIN, tokenAgent, type FcmTestEndpoint } from '../../services/push/src/senders/fcm-endpoint';
import type { ServiceAccountFile } from './push-fakes';

export interface Run {
  ms: number;
  success: number;
}

/** Runs `run` over `items` with at most `limit` at once. */
export async function pool<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

export function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/**
 * firebase-admin's HTTP/2 client has a fixed host and no emulator: its sessions are opened with
 * `http2.connect('https://fcm.googleapis.com')`, so the bench wraps that one function — the TLS
 * connection goes to the fake instead, its certificate checked for that name against the fake's CA.
 * firebase-admin also sends `:scheme` as `https:` (with the colon, from a URL's `protocol`): Google
 * accepts it, Node's HTTP/2 server (nghttp2) refuses the stream before any code of the fake sees it,
 * so the wrapper sends `https`. Nothing else of the SDK's requests changes.
 */
export function aimFirebaseAdminAt(endpoint: FcmTestEndpoint): void {
  const connect = http2.connect;
  const wrapped = (authority: string | URL, options?: http2.SecureClientSessionOptions) => {
    if (!String(authority).startsWith(FCM_ORIGIN)) return connect(authority, options);
    const session = connect(authority, {
      ...options,
      createConnection: () =>
        tls.connect({
          host: endpoint.host,
          port: endpoint.port,
          ca: endpoint.ca,
          servername: new URL(FCM_ORIGIN).hostname,
          ALPNProtocols: ['h2'],
        }),
    });
    const request = session.request.bind(session);
    session.request = (headers, opts) => request({ ...headers, ':scheme': 'https' }, opts);
    return session;
  };
  // The module object is shared with firebase-admin's own `require('http2')`.
  (http2 as { connect: unknown }).connect = wrapped;
}

/** firebase-admin directly: batches of `batch` tokens through `sendEachForMulticast`, `inFlight` at once. */
export async function firebaseAdminDirect(
  endpoint: FcmTestEndpoint,
  sa: ServiceAccountFile,
  tokens: string[],
  batch: number,
  inFlight: number,
): Promise<Run> {
  const agent = tokenAgent(endpoint);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-sa-'));
  const keyFile = path.join(dir, 'sa.json');
  fs.writeFileSync(keyFile, JSON.stringify(sa), { mode: 0o600 });
  // A key file by path: firebase-admin sends the token exchange through the agent only then.
  const app = initializeApp(
    { credential: cert(keyFile, agent), httpAgent: agent, projectId: sa.project_id },
    `bench-direct-${Date.now()}`,
  );
  const messaging = getMessaging(app);
  try {
    await messaging.sendEachForMulticast({ tokens: ['warm-up'], notification: { title: 'warm-up' } });
    let success = 0;
    const started = performance.now();
    await pool(chunk(tokens, batch), inFlight, async (part) => {
      const r = await messaging.sendEachForMulticast({
        tokens: part,
        notification: { title: 'bench', body: 'direct' },
        android: { priority: 'high' },
      });
      success += r.successCount;
    });
    return { ms: performance.now() - started, success };
  } finally {
    await deleteApp(app);
    agent?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** @parse/node-apn directly: one Provider (one HTTP/2 session), batches of `batch` tokens, `inFlight` at once. */
export async function nodeApnDirect(
  endpoint: { host: string; port: number; ca: string },
  key: { p8: string; keyId: string; teamId: string },
  tokens: string[],
  batch: number,
  inFlight: number,
): Promise<Run> {
  const provider = new Provider({
    token: { key: key.p8, keyId: key.keyId, teamId: key.teamId },
    production: true,
    address: endpoint.host,
    port: endpoint.port,
    ca: [endpoint.ca],
  });
  const note = () => {
    const n = new Notification();
    n.rawPayload = { aps: { alert: { title: 'bench', body: 'direct' } } };
    n.topic = 'com.example.bench';
    n.pushType = 'alert';
    n.priority = 10;
    return n;
  };
  try {
    await provider.send(note(), ['a'.repeat(64)]);
    let success = 0;
    const started = performance.now();
    await pool(chunk(tokens, batch), inFlight, async (part) => {
      const r = await provider.send(note(), part);
      success += r.sent.length;
    });
    return { ms: performance.now() - started, success };
  } finally {
    await provider.shutdown();
  }
}

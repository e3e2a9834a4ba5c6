import { randomUUID, verify, type KeyObject } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { derOid } from '../../services/push/src/senders/apns-certificate';
import { APPLE_SANDBOX_OID } from './fake-credentials';
import type { ApiJson } from './api-json';

/** One push as the fake APNs received it. */
export interface ApnsReceived {
  /** Which fake got it: the production or the sandbox (development) one. */
  environment: 'production' | 'development';
  token: string;
  topic: string | undefined;
  priority: string | undefined;
  expiration: string | undefined;
  collapseId: string | undefined;
  pushType: string | undefined;
  /** How the sender authenticated: a provider token (JWT) or a client certificate. */
  auth:
    | { kind: 'token'; keyId: string; teamId: string }
    | { kind: 'certificate'; subject: string; sandbox: boolean }
    | { kind: 'none' };
  /** The `authorization` header as sent (a token client's `bearer <JWT>`). */
  authorization: string | undefined;
  /** The request's header names, in the order sent (pseudo-headers first). */
  headerNames: string[];
  /** The body as sent. */
  body: string;
  payload: ApiJson;
  status: number;
  /** Epoch ms (fractional) when the whole request had arrived. */
  at: number;
}

export type ApnsTokenAnswer = 'bad-device-token' | 'unregistered';
/** A topic's outage: 503 ServiceUnavailable, or answers that come after `delayMs`. */
export type ApnsTopicAnswer = { kind: 'down' } | { kind: 'slow'; delayMs: number };

/**
 * A local HTTP/2 TLS server speaking the APNs provider API: `POST /3/device/<token>` with the
 * `apns-*` headers and a JSON body. It checks provider tokens (ES256 JWT, `kid` and `iss` of a
 * trusted key) and records the client certificate when one is presented. It answers like Apple:
 * 200 with `apns-id`; 400 `BadDeviceToken`; 410 `Unregistered`; 403 `InvalidProviderToken`;
 * 503 `ServiceUnavailable` while a topic is "down". Listens on 127.0.0.1, port 0.
 */
export class FakeApns {
  readonly received: ApnsReceived[] = [];
  /** TLS connections opened to this fake (a reused client opens one). */
  connections = 0;
  /** TLS handshakes this fake refused (a client without the required certificate). */
  refused = 0;
  /** Pushes arrived and held right now by a `slow` answer (a test waits for a send to be in flight). */
  held = 0;
  private readonly keys = new Map<string, { teamId: string; publicKey: KeyObject }>();
  private readonly tokenAnswers = new Map<string, ApnsTokenAnswer>();
  private readonly topicAnswers = new Map<string, ApnsTopicAnswer>();
  /** Provider tokens already verified (a client reuses one for up to an hour, and APNs checks it once). */
  private readonly verified = new Map<string, ApnsReceived['auth']>();

  private constructor(
    private readonly server: http2.Http2SecureServer,
    readonly environment: 'production' | 'development',
    /** Where each push goes: `received` (tests), or a benchmark's sink (FakeFcm.start says why). */
    private readonly sink: (r: ApnsReceived) => void,
  ) {}

  /**
   * `clientCa` makes a fake that requires a client certificate signed by it (a connection without
   * one fails its TLS handshake); without it, certificate clients are recorded and token clients pass.
   */
  static async start(opts: {
    environment: 'production' | 'development';
    tls: { key: string; cert: string };
    clientCa?: string;
    sink?: (r: ApnsReceived) => void;
  }): Promise<FakeApns> {
    const server = http2.createSecureServer({
      key: opts.tls.key,
      cert: opts.tls.cert,
      requestCert: true,
      rejectUnauthorized: opts.clientCa !== undefined,
      ...(opts.clientCa ? { ca: [opts.clientCa] } : {}),
    });
    const fake: FakeApns = new FakeApns(server, opts.environment, opts.sink ?? ((r) => fake.received.push(r)));
    server.on('secureConnection', () => {
      fake.connections++;
    });
    server.on('tlsClientError', () => {
      fake.refused++;
    });
    server.on('stream', (stream, headers) => fake.handle(stream, headers));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `host:port`, the value of APNS_ENDPOINT / APNS_SANDBOX_ENDPOINT. */
  get endpoint(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  trustKey(key: { keyId: string; teamId: string; publicKey: KeyObject }): void {
    this.keys.set(key.keyId, { teamId: key.teamId, publicKey: key.publicKey });
  }

  answerToken(token: string, answer: ApnsTokenAnswer): void {
    this.tokenAnswers.set(token, answer);
  }

  answerTopic(topic: string, answer: ApnsTopicAnswer | null): void {
    if (answer) this.topicAnswers.set(topic, answer);
    else this.topicAnswers.delete(topic);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // Sessions kept open by clients would hold close() forever.
      (this.server as unknown as { closeAllSessions?: () => void }).closeAllSessions?.();
      setTimeout(resolve, 2000).unref(); // a cap on close(), not a wait: it resolves earlier when it can
    });
  }

  private handle(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const path = String(headers[':path'] ?? '');
      const m = /^\/3\/device\/([^/?]+)$/.exec(path);
      const reply = (status: number, body?: unknown) => {
        if (stream.destroyed || stream.closed) return;
        stream.respond({
          ':status': status,
          'apns-id': String(headers['apns-id'] ?? randomUUID()),
          ...(body ? { 'content-type': 'application/json' } : {}),
        });
        stream.end(body ? JSON.stringify(body) : undefined);
      };
      if (headers[':method'] !== 'POST' || !m) return reply(404, { reason: 'BadPath' });
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: ApnsReceived = {
        environment: this.environment,
        token: m[1],
        topic: header(headers, 'apns-topic'),
        priority: header(headers, 'apns-priority'),
        expiration: header(headers, 'apns-expiration'),
        collapseId: header(headers, 'apns-collapse-id'),
        pushType: header(headers, 'apns-push-type'),
        auth: this.authOf(stream, headers),
        authorization: header(headers, 'authorization'),
        headerNames: Object.keys(headers),
        body: text,
        payload: text ? (JSON.parse(text) as ApiJson) : {},
        status: 0,
        at: performance.timeOrigin + performance.now(),
      };
      const [status, body] = this.answerFor(entry, headers);
      const answer = entry.topic ? this.topicAnswers.get(entry.topic) : undefined;
      const finish = () => {
        entry.status = status;
        this.sink(entry);
        reply(status, body);
      };
      if (answer?.kind === 'slow') {
        this.held++;
        setTimeout(() => {
          this.held--;
          finish();
        }, answer.delayMs).unref();
      } else finish();
    });
  }

  private answerFor(entry: ApnsReceived, headers: http2.IncomingHttpHeaders): [number, unknown] {
    if (entry.auth.kind === 'none')
      return [403, { reason: headers.authorization ? 'InvalidProviderToken' : 'MissingProviderToken' }];
    if (entry.topic && this.topicAnswers.get(entry.topic)?.kind === 'down')
      return [503, { reason: 'ServiceUnavailable' }];
    switch (this.tokenAnswers.get(entry.token)) {
      case 'bad-device-token':
        return [400, { reason: 'BadDeviceToken' }];
      case 'unregistered':
        return [410, { reason: 'Unregistered', timestamp: Date.now() }];
      default:
        return [200, undefined];
    }
  }

  /** A valid ES256 provider token of a trusted key, else the client certificate, else nothing. */
  private authOf(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): ApnsReceived['auth'] {
    const bearer = /^bearer (.+)$/i.exec(String(headers.authorization ?? ''))?.[1];
    const known = bearer ? this.verified.get(bearer) : undefined;
    if (known) return known;
    if (bearer) {
      const [h, p, s] = bearer.split('.');
      try {
        const head = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: string; kid?: string };
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as { iss?: string };
        const key = head.kid ? this.keys.get(head.kid) : undefined;
        if (
          head.alg === 'ES256' &&
          key &&
          claims.iss === key.teamId &&
          verify(
            'SHA256',
            Buffer.from(`${h}.${p}`),
            { key: key.publicKey, dsaEncoding: 'ieee-p1363' },
            Buffer.from(s, 'base64url'),
          )
        ) {
          const auth = { kind: 'token' as const, keyId: head.kid as string, teamId: key.teamId };
          this.verified.set(bearer, auth);
          return auth;
        }
      } catch {
        /* a malformed token is no token */
      }
      return { kind: 'none' };
    }
    const peer = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate?.(true);
    if (peer && peer.raw) {
      // Node does not list custom extensions; look for the extension's OID in the certificate's DER.
      const sandbox = peer.raw.includes(derOid(APPLE_SANDBOX_OID));
      return {
        kind: 'certificate',
        subject: peer.subject
          ? Object.entries(peer.subject)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(',')
          : '',
        sandbox,
      };
    }
    return { kind: 'none' };
  }
}

function header(headers: http2.IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return v === undefined ? undefined : String(v);
}

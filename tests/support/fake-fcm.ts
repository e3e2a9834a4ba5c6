import { randomBytes, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import tls from 'node:tls';
import type { ApiJson } from './api-json';
import { fcmAnswer, type FcmProjectAnswer, type FcmTokenAnswer } from './fake-fcm-answers';

export type { FcmProjectAnswer, FcmTokenAnswer } from './fake-fcm-answers';

/** One message FCM accepted or refused, as the fake received it. */
export interface FcmReceived {
  project: string;
  /** The `message` object of the FCM HTTP v1 request body. */
  message: ApiJson;
  /** HTTP status the fake answered with. */
  status: number;
  /** `2` for HTTP/2 (what FCM clients use), `1.1` for the legacy transport. */
  httpVersion: string;
  /** Which TLS connection carried it (1, 2, … in the order they were opened). */
  connection: number;
  /** Epoch ms (fractional) when the whole request had arrived. */
  at: number;
}

/** The host names the fake answers for: a client that trusts its certificate verifies them as usual. */
export const FCM_HOSTS = ['fcm.googleapis.com', 'oauth2.googleapis.com'];

/**
 * A local server speaking what FCM clients talk to, over TLS with a certificate made at test time
 * for Google's host names (tests/support/fake-credentials.ts): Google's OAuth 2.0 JWT-bearer token
 * exchange (`POST /token`, the RS256 assertion checked against the service account's public key;
 * HTTP/1.1, as google-auth-library sends it) and FCM HTTP v1 (`POST /v1/projects/<id>/messages:send`,
 * the bearer token checked) over HTTP/2 — or HTTP/1.1, recorded as such. It answers like FCM
 * (fake-fcm-answers.ts) and counts the TLS connections, so a test can tell a reused session from
 * one per request. Listens on 127.0.0.1, port 0; ALPN picks HTTP/2 or HTTP/1.1 per connection.
 */
export class FakeFcm {
  readonly received: FcmReceived[] = [];
  /** Successful token exchanges, by project. */
  readonly tokenGrants = new Map<string, number>();
  /** TLS connections opened to this fake. */
  connections = 0;
  /** Messages arrived and held right now by a `slow` answer (a test waits for a send to be in flight). */
  held = 0;
  private readonly accounts = new Map<string, { projectId: string; publicKey: KeyObject }>();
  private readonly accessTokens = new Map<string, string>();
  private readonly tokenAnswers = new Map<string, FcmTokenAnswer>();
  private readonly projectAnswers = new Map<string, FcmProjectAnswer>();
  private readonly sockets = new Set<Socket>();
  private nextId = 1;

  private constructor(
    private readonly server: tls.Server,
    /** Where each message goes: `received` (tests), or a benchmark's sink that keeps only what it measures. */
    private readonly sink: (r: FcmReceived) => void,
  ) {}

  /**
   * `sink` takes each message instead of `received`: a benchmark keeps a number or two per message, so the
   * fake's own heap (and its collector's pauses, which would count as the sender's latency) stays small.
   */
  static async start(opts: { tls: { key: string; cert: string }; sink?: (r: FcmReceived) => void }): Promise<FakeFcm> {
    const server = tls.createServer({ key: opts.tls.key, cert: opts.tls.cert, ALPNProtocols: ['h2', 'http/1.1'] });
    const fake: FakeFcm = new FakeFcm(server, opts.sink ?? ((r) => fake.received.push(r)));
    const h2 = http2.createServer();
    h2.on('stream', (stream, headers) => fake.onStream(stream, headers));
    const h1 = http.createServer((req, res) => fake.onRequest(req, res));
    h1.keepAliveTimeout = 60_000;
    server.on('secureConnection', (socket) => {
      const n = ++fake.connections;
      (socket as Socket & { fakeConnection?: number }).fakeConnection = n;
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
      (socket.alpnProtocol === 'h2' ? h2 : h1).emit('connection', socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `host:port`, the value of Patchbay's FCM_ENDPOINT. */
  get endpoint(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Accepts token requests signed by this service account (its key was made at test time). */
  trust(account: { clientEmail: string; projectId: string; publicKey: KeyObject }): void {
    this.accounts.set(account.clientEmail, { projectId: account.projectId, publicKey: account.publicKey });
  }

  answerToken(token: string, answer: FcmTokenAnswer): void {
    this.tokenAnswers.set(token, answer);
  }

  answerProject(projectId: string, answer: FcmProjectAnswer | null): void {
    if (answer) this.projectAnswers.set(projectId, answer);
    else this.projectAnswers.delete(projectId);
  }

  /** Messages received for a project (tokens taken from the message). */
  forProject(projectId: string): FcmReceived[] {
    return this.received.filter((r) => r.project === projectId);
  }

  /** How many distinct connections carried a project's messages. */
  connectionsFor(projectId: string): number {
    return new Set(this.forProject(projectId).map((r) => r.connection)).size;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', () => undefined);
    stream.on('end', () => {
      const send = (status: number, json: unknown, extra: Record<string, string> = {}) => {
        if (stream.destroyed || stream.closed) return;
        stream.respond({ ':status': status, 'content-type': 'application/json; charset=UTF-8', ...extra });
        stream.end(JSON.stringify(json));
      };
      const connection = (stream.session?.socket as (Socket & { fakeConnection?: number }) | undefined)?.fakeConnection;
      this.route(
        String(headers[':method']),
        String(headers[':path']),
        String(headers.authorization ?? ''),
        Buffer.concat(chunks).toString('utf8'),
        { httpVersion: '2', connection: connection ?? 0 },
        send,
      );
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, json: unknown, extra: Record<string, string> = {}) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...extra });
        res.end(JSON.stringify(json));
      };
      const connection = (req.socket as Socket & { fakeConnection?: number }).fakeConnection ?? 0;
      this.route(
        req.method ?? '',
        req.url ?? '',
        String(req.headers.authorization ?? ''),
        Buffer.concat(chunks).toString('utf8'),
        { httpVersion: '1.1', connection },
        send,
      );
    });
  }

  private route(
    method: string,
    path: string,
    authorization: string,
    body: string,
    via: { httpVersion: string; connection: number },
    send: (status: number, json: unknown, extra?: Record<string, string>) => void,
  ): void {
    if (method === 'POST' && path === '/token') return this.tokenExchange(body, send);
    const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (method === 'POST' && m) return this.messageSend(m[1], authorization, body, via, send);
    send(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
  }

  /** RFC 7523 JWT-bearer grant: the assertion must be signed by a trusted service account. */
  private tokenExchange(body: string, send: (status: number, json: unknown) => void): void {
    const form = new URLSearchParams(body);
    const assertion = form.get('assertion') ?? '';
    const [h, p, s] = assertion.split('.');
    const claims = p
      ? (JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as { iss?: string; aud?: string; exp?: number })
      : {};
    const account = claims.iss ? this.accounts.get(claims.iss) : undefined;
    const signed =
      !!account &&
      !!s &&
      verify('RSA-SHA256', Buffer.from(`${h}.${p}`), account.publicKey, Buffer.from(s, 'base64url'));
    if (
      form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' ||
      !account ||
      !signed ||
      (claims.exp ?? 0) * 1000 < Date.now()
    ) {
      return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    const accessToken = `ya29.fake-${randomBytes(12).toString('hex')}`;
    this.accessTokens.set(accessToken, account.projectId);
    this.tokenGrants.set(account.projectId, (this.tokenGrants.get(account.projectId) ?? 0) + 1);
    send(200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
  }

  private messageSend(
    project: string,
    authorization: string,
    body: string,
    via: { httpVersion: string; connection: number },
    send: (status: number, json: unknown, extra?: Record<string, string>) => void,
  ): void {
    const token = authorization.replace(/^Bearer /, '');
    if (this.accessTokens.get(token) !== project) {
      return send(401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    }
    const at = performance.timeOrigin + performance.now();
    const message = (JSON.parse(body) as { message: ApiJson }).message;
    const projectAnswer = this.projectAnswers.get(project);
    const reply = () => {
      const { status, json, headers } = fcmAnswer(
        project,
        this.nextId++,
        projectAnswer,
        this.tokenAnswers.get(String(message.token)),
      );
      if (projectAnswer?.kind === 'quota' && status === 429 && --projectAnswer.times <= 0)
        this.projectAnswers.delete(project);
      this.sink({ project, message, status, ...via, at });
      send(status, json, headers);
    };
    if (projectAnswer?.kind === 'slow') {
      this.held++;
      setTimeout(() => {
        this.held--;
        reply();
      }, projectAnswer.delayMs).unref();
    } else reply();
  }
}

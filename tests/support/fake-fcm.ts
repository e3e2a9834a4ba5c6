import { randomBytes, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiJson } from './api-json';

/** One message FCM accepted or refused, as the fake received it. */
export interface FcmReceived {
  project: string;
  /** The `message` object of the FCM HTTP v1 request body. */
  message: ApiJson;
  /** HTTP status the fake answered with. */
  status: number;
}

/** How the fake answers for one token. */
export type FcmTokenAnswer = 'unregistered' | 'invalid';
/** How the fake answers for a whole project: an outage (HTTP 500 INTERNAL) or slow answers. */
export type FcmProjectAnswer = { kind: 'down' } | { kind: 'slow'; delayMs: number };

const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

/**
 * A local server speaking what firebase-admin talks to: Google's OAuth 2.0 JWT-bearer token
 * exchange (`POST /token`, the RS256 assertion checked against the service account's public key)
 * and FCM HTTP v1 (`POST /v1/projects/<id>/messages:send`, the bearer token checked). It answers
 * like FCM: `{name}` on success; 404 `UNREGISTERED` and 400 `INVALID_ARGUMENT` per token; 500
 * `INTERNAL` while a project is "down". Plain HTTP on 127.0.0.1, port 0.
 */
export class FakeFcm {
  readonly received: FcmReceived[] = [];
  /** Successful token exchanges, by project. */
  readonly tokenGrants = new Map<string, number>();
  private readonly accounts = new Map<string, { projectId: string; publicKey: KeyObject }>();
  private readonly accessTokens = new Map<string, string>();
  private readonly tokenAnswers = new Map<string, FcmTokenAnswer>();
  private readonly projectAnswers = new Map<string, FcmProjectAnswer>();
  private nextId = 1;

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<FakeFcm> {
    const server = http.createServer();
    const fake = new FakeFcm(server);
    server.on('request', (req, res) => fake.handle(req, res));
    server.keepAliveTimeout = 60_000;
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

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, json: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === '/token') return this.tokenExchange(body, send);
      const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '');
      if (req.method === 'POST' && m)
        return this.messageSend(m[1], String(req.headers.authorization ?? ''), body, send);
      send(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    });
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
    send: (status: number, json: unknown) => void,
  ): void {
    const token = authorization.replace(/^Bearer /, '');
    if (this.accessTokens.get(token) !== project) {
      return send(401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    }
    const message = (JSON.parse(body) as { message: ApiJson }).message;
    const answer = this.projectAnswers.get(project);
    const reply = () => {
      const [status, json] = this.answerFor(project, message);
      this.received.push({ project, message, status });
      send(status, json);
    };
    if (answer?.kind === 'slow') setTimeout(reply, answer.delayMs).unref();
    else reply();
  }

  private answerFor(project: string, message: ApiJson): [number, unknown] {
    if (this.projectAnswers.get(project)?.kind === 'down') {
      return [
        500,
        {
          error: {
            code: 500,
            message: 'Internal error encountered.',
            status: 'INTERNAL',
            details: [{ '@type': FCM_ERROR, errorCode: 'INTERNAL' }],
          },
        },
      ];
    }
    switch (this.tokenAnswers.get(String(message.token))) {
      case 'unregistered':
        return [
          404,
          {
            error: {
              code: 404,
              message: 'Requested entity was not found.',
              status: 'NOT_FOUND',
              details: [{ '@type': FCM_ERROR, errorCode: 'UNREGISTERED' }],
            },
          },
        ];
      case 'invalid':
        return [
          400,
          {
            error: {
              code: 400,
              message: 'The registration token is not a valid FCM registration token',
              status: 'INVALID_ARGUMENT',
              details: [{ '@type': FCM_ERROR, errorCode: 'INVALID_ARGUMENT' }],
            },
          },
        ];
      default:
        return [200, { name: `projects/${project}/messages/${this.nextId++}` }];
    }
  }
}

import fs from 'node:fs';
import request from 'supertest';
import { startPatchbay, type Mode, type PatchbayInstance } from '../harness/patchbay';
import { FakeApns } from './fake-apns';
import { FCM_HOSTS, FakeFcm } from './fake-fcm';
import { until } from './poll';
import {
  fakeApnsTokenKey,
  fakeServerTls,
  fakeServiceAccount,
  type FakeApnsTokenKey,
  type FakeServiceAccount,
  type FakeTls,
} from './fake-credentials';

export interface PushTestPartner {
  partner_sid: string;
  auth: [string, string];
}

/** Push settings of the instance under test (short, so outages resolve quickly). */
export interface PushTestSettings {
  sendDeadlineMs: number;
  attemptTimeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  /** PUSH_SEND_WORKERS (default: the service's default, one per core). */
  sendWorkers?: number;
  /** More environment for the instance (a test's own settings). */
  env?: Record<string, string>;
}

const V2 = '/core/v2';
let counter = 0;

/**
 * A fake FCM, a fake production APNs and a fake sandbox APNs on 127.0.0.1 — TLS with one certificate
 * made at test time, valid for 127.0.0.1 and Google's FCM host names — and a Patchbay instance of its
 * own (in the given mode) aimed at them through FCM_ENDPOINT, FCM_CA, APNS_ENDPOINT,
 * APNS_SANDBOX_ENDPOINT and APNS_CA, plus helpers that drive that instance's public API.
 */
export class FakePushWorld {
  private constructor(
    readonly fcm: FakeFcm,
    readonly apnsProd: FakeApns,
    readonly apnsDev: FakeApns,
    readonly tls: FakeTls,
    public pb: PatchbayInstance,
  ) {}

  static async start(mode: Mode, s: PushTestSettings): Promise<FakePushWorld> {
    const tls = fakeServerTls(FCM_HOSTS);
    const [fcm, apnsProd, apnsDev] = await Promise.all([
      FakeFcm.start({ tls }),
      FakeApns.start({ environment: 'production', tls }),
      FakeApns.start({ environment: 'development', tls }),
    ]);
    const env = {
      FCM_ENDPOINT: fcm.endpoint,
      FCM_CA: tls.caFile,
      APNS_ENDPOINT: apnsProd.endpoint,
      APNS_SANDBOX_ENDPOINT: apnsDev.endpoint,
      APNS_CA: tls.caFile,
      PUSH_SEND_DEADLINE_MS: String(s.sendDeadlineMs),
      PUSH_ATTEMPT_TIMEOUT_MS: String(s.attemptTimeoutMs),
      PUSH_MAX_RETRIES: String(s.maxRetries),
      PUSH_RETRY_BASE_MS: String(s.retryBaseMs),
      ...(s.sendWorkers !== undefined ? { PUSH_SEND_WORKERS: String(s.sendWorkers) } : {}),
      ...s.env,
    };
    // A Patchbay that does not start must not leave the fakes listening (jest would not exit).
    const pb = await startPatchbay(mode, env).catch(async (err: unknown) => {
      await Promise.all([fcm.stop(), apnsProd.stop(), apnsDev.stop()]);
      fs.rmSync(tls.dir, { recursive: true, force: true });
      throw err;
    });
    const world = new FakePushWorld(fcm, apnsProd, apnsDev, tls, pb);
    await world.warmUp().catch(async (err: unknown) => {
      await world.stop();
      throw err;
    });
    return world;
  }

  /**
   * One send through the push service's worker threads before any test sends (and again after each
   * restart), repeated until it succeeds. The threads start with the first send, and run from source
   * (tsx, the distributed mode) they compile the senders first: 7.2 s measured on this two-core
   * machine under load, all of it counted against the send deadline (4 s in most of these tests), so
   * a test's first send could come back `provider_error` without reaching the fake at all (issue 40
   * item 10); under enough load the bundle's start (the embedded mode) takes that long too. On APNs
   * development, with a partner, key and topic of its own: no test's project, topic or token sees it
   * (tests compare connection counts as differences).
   */
  private async warmUp(): Promise<void> {
    const p = await this.newPartner();
    const app = await this.newApp(p, tokenApp(this.apnsKey(), 'com.example.warm-up'));
    const device = await this.newDevice(p, app, 'ios', deviceToken('ios'), 'development');
    await until('the push send workers to deliver a first push', 120_000, async () => {
      const res = await this.send(p, { recipients: [device] });
      return res.status === 200 && res.body.success === 1 ? true : undefined;
    });
  }

  async stop(): Promise<void> {
    await this.pb.stop();
    await Promise.all([this.fcm.stop(), this.apnsProd.stop(), this.apnsDev.stop()]);
    fs.rmSync(this.tls.dir, { recursive: true, force: true });
  }

  /**
   * Crashes the instance (SIGKILL to all its processes) and starts it again on the same data
   * directory, databases, ports and NATS; `whileDown` runs in between (e.g. to change what is
   * stored) and may return environment changes for the restarted instance.
   */
  async restart(
    whileDown?: () => void | Record<string, string> | Promise<void | Record<string, string>>,
  ): Promise<void> {
    await this.pb.kill();
    const env = await whileDown?.();
    this.pb = await this.pb.restart(env ?? {});
    // A new process starts its send workers again: warmed with a partner of its own, whatever the key.
    await this.warmUp();
  }

  /** supertest on this instance's origin; paths under /core/v2. */
  api() {
    return request(this.pb.origin);
  }

  async newPartner(scopes?: string[]): Promise<PushTestPartner> {
    const login = `push${Date.now().toString(36)}${(counter++).toString(36)}`;
    const created = await this.api()
      .post(`${V2}/partners`)
      .set('Authorization', `Bearer ${this.pb.token}`)
      .send({ login, password: 'partner-password-1', ...(scopes ? { available_scopes: scopes } : {}) });
    if (created.status !== 200)
      throw new Error(`partner create failed: ${created.status} ${JSON.stringify(created.body)}`);
    const tok = await this.api()
      .post(`${V2}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: login, password: 'partner-password-1' });
    return { partner_sid: created.body.partner_sid, auth: ['Authorization', `Bearer ${tok.body.access_token}`] };
  }

  async newApp(p: PushTestPartner, body: Record<string, unknown>): Promise<string> {
    const res = await this.api()
      .post(`${V2}/push/applications`)
      .set(...p.auth)
      .send(body);
    if (res.status !== 200) throw new Error(`application create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.application_sid;
  }

  async newDevice(
    p: PushTestPartner,
    applicationSid: string,
    type: 'android' | 'ios' | 'web',
    token: string,
    environment = 'production',
  ): Promise<string> {
    const res = await this.api()
      .post(`${V2}/push/devices`)
      .query({ reuse: 'false' })
      .set(...p.auth)
      .send({ application_sid: applicationSid, type, token, environment });
    if (res.status !== 200) throw new Error(`device create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.device_sid;
  }

  send(p: PushTestPartner, body: Record<string, unknown>) {
    return this.api()
      .post(`${V2}/push/notifications`)
      .set(...p.auth)
      .send(body);
  }

  /** A fresh FCM project whose service account the fake FCM trusts. */
  fcmAccount(name: string): FakeServiceAccount {
    const sa = fakeServiceAccount(`${name}-${(counter++).toString(36)}`);
    this.fcm.trust(sa);
    return sa;
  }

  /** A fresh APNs token key both fake APNs servers trust. */
  apnsKey(): FakeApnsTokenKey {
    const key = fakeApnsTokenKey();
    this.apnsProd.trustKey(key);
    this.apnsDev.trustKey(key);
    return key;
  }
}

/** Application fields for APNs token auth with `key`. */
export const tokenApp = (key: FakeApnsTokenKey, topic: string) => ({
  apns_p8: key.p8,
  apns_key_id: key.keyId,
  apns_team_id: key.teamId,
  apns_topic: topic,
});

let tokenSeq = 0;
/** A unique device token: 64 hex digits for iOS, FCM-like otherwise. */
export const deviceToken = (kind: 'ios' | 'fcm') =>
  kind === 'ios'
    ? (Date.now().toString(16) + (tokenSeq++).toString(16).padStart(8, '0')).padEnd(64, 'a')
    : `fcm-${Date.now().toString(36)}-${tokenSeq++}:APA91b`;

/**
 * A partner's slow storage never costs anyone else, and never outlasts its request (docs/security.md,
 * "External storage errors": the deadline). Partner A creates external containers aimed at a silent
 * endpoint (a TCP server that accepts and never answers; EXTERNAL_STORAGE_ALLOW_PRIVATE on so it
 * may be reached): every create is a 422 before the gateway's bus timeout (never its 504), and no
 * container appears afterwards. Meanwhile partner B's storage calls (upload, get, list, delete) all
 * succeed: the gateway's circuit breaker, which opens on bus timeouts, never sees one. Its own
 * instance with a short bus timeout, so the probe budget is short.
 */
import request from 'supertest';
import { expectErrorBody, mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { startS3rver, type S3rverHandle } from '../support/object-stores';
import { startDelayingProxy, startSilentServer, type TcpListener } from '../support/tcp-listeners';

const API = '/core/v2';
const BUS_TIMEOUT_MS = 5000;

let pb: PatchbayInstance;
let silent: TcpListener;
let s3: S3rverHandle;
let slow: TcpListener;
const api = () => request(pb.origin);

async function partner(name: string): Promise<[string, string]> {
  const login = `${name}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await api()
    .post(`${API}/partners`)
    .set('Authorization', `Bearer ${pb.token}`)
    .send({ name, login, password: 'partner-password-1', attributes: { max_containers: 20 } });
  const tok = await api()
    .post(`${API}/oauth/token`)
    .type('form')
    .send({ grant_type: 'password', username: login, password: 'partner-password-1' });
  return ['Authorization', `Bearer ${tok.body.access_token}`];
}

beforeAll(async () => {
  [silent, s3] = await Promise.all([startSilentServer(), startS3rver(['works-slowly'])]);
  // Every answer 40% of the bus timeout late: the probe's three calls would end after the gateway's.
  slow = await startDelayingProxy(Number(new URL(s3.endpoint).port), BUS_TIMEOUT_MS * 0.4);
  pb = await startPatchbay(mode(), { EXTERNAL_STORAGE_ALLOW_PRIVATE: 'true', BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS) });
}, 120_000);
afterAll(async () => {
  await Promise.all([pb?.stop(), silent?.stop(), slow?.stop(), s3?.stop()]);
}, 60_000);

test(
  "A's creates aimed at a silent endpoint are 422s, nothing is created " + "later, and B's calls all succeed",
  async () => {
    const [a, b] = [await partner('a'), await partner('b')];
    const endpoint = `http://127.0.0.1:${silent.port}`;
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['aws_s3', { bucket: 'slow', endpoint, credentials: { access_key_id: 'k', secret_access_key: 's' } }],
      ['aws_s3', { bucket: 'slow-two', endpoint }],
      ['gcp_storage', { bucket: 'slow', endpoint }],
      ['azure_blob', { container: 'slow', endpoint: `${endpoint}/acct` }],
    ];
    let answeredAt = 0;
    const creates = Promise.all(
      attempts.map(async ([type, external_attributes]) => {
        const res = await api()
          .post(`${API}/storage/containers`)
          .set(...a)
          .send({ type, external_attributes });
        return { type, status: res.status, body: res.body as { errors: Array<{ field: string; message: string }> } };
      }),
    ).finally(() => {
      answeredAt = Date.now();
    });

    // B works with storage the whole time A's creates are waiting on the silent endpoint, and for a bus
    // timeout after they were answered (when a breaker opened by them would refuse B, and when a create
    // that outlived its request would appear).
    const seen: number[] = [];
    const made = await api()
      .post(`${API}/storage/containers`)
      .set(...b)
      .send({ name: 'b' });
    seen.push(made.status);
    while (answeredAt === 0 || Date.now() - answeredAt < BUS_TIMEOUT_MS) {
      const up = await api()
        .post(`${API}/storage/files?container_sid=${made.body.container_sid}&name=n.txt`)
        .set(...b)
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from('neighbour'));
      seen.push(up.status);
      seen.push(
        (
          await api()
            .get(`${API}/storage/containers`)
            .set(...b)
        ).status,
      );
      if (up.status !== 201) continue;
      for (const call of [
        api()
          .get(`${API}/storage/files/${up.body.file_sid}`)
          .set(...b),
        api()
          .delete(`${API}/storage/files/${up.body.file_sid}`)
          .set(...b),
      ])
        seen.push((await call).status);
    }

    expect(seen.length).toBeGreaterThan(3);
    expect(seen.filter((s) => s !== 200 && s !== 201 && s !== 204)).toEqual([]);
    for (const r of await creates) {
      expect({ type: r.type, status: r.status }).toEqual({ type: r.type, status: 422 });
      expectErrorBody(r.body);
      expect(r.body.errors).toEqual([
        { field: 'external_attributes', message: 'the storage cannot be used: could not connect', reference_sid: null },
      ]);
    }
    expect(silent.connections()).toBeGreaterThan(0);
    // Nothing of A's appeared after its creates were answered.
    const listed = await api()
      .get(`${API}/storage/containers`)
      .set(...a);
    expect(listed.body.items.map((c: { type: string }) => c.type)).toEqual(['internal']);
  },
  90_000,
);

test(
  'a storage that works, but slower than the deadline: 422 in time, and ' + 'no container appears afterwards',
  async () => {
    const a = await partner('slow');
    const res = await api()
      .post(`${API}/storage/containers`)
      .set(...a)
      .send({
        type: 'aws_s3',
        external_attributes: {
          bucket: 'works-slowly',
          endpoint: `http://127.0.0.1:${slow.port}`,
          credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
        },
      });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'external_attributes', message: 'the storage cannot be used: could not connect', reference_sid: null },
    ]);
    expect(slow.connections()).toBeGreaterThan(0);
    // Long enough for every call of the probe to have been answered by now.
    await new Promise((r) => setTimeout(r, 2 * BUS_TIMEOUT_MS));
    const listed = await api()
      .get(`${API}/storage/containers`)
      .set(...a);
    expect(listed.body.items.map((c: { type: string }) => c.type)).toEqual(['internal']);
  },
  60_000,
);

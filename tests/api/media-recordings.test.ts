/**
 * The media plane, recordings in (docs/interface-notes.md, Media plane): operator only; the container by
 * the endpoint rules (Record verb override for FlexML → the endpoint's container_sid → the
 * partner's default); which types record; and every upload rule (quota, reject threshold,
 * classification) on recordings too.
 */
import request from 'supertest';
import { API, adminAuth, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { tone } from '../support/media';
import { defaultContainer, endpoint, play, record } from '../support/media-plane';
import { createContainer } from '../support/storage';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 10 } });
});

const fileOf = async (sid: string) =>
  (
    await http()
      .get(`${API}/storage/files/${sid}`)
      .set(...p.auth)
  ).body;

describe('who may use the media routes', () => {
  test('a partner token is refused on every media route, whatever scopes it holds', async () => {
    const vm = await endpoint(p, 'voicemail');
    expect((await record({ endpoint_sid: vm.endpoint_sid }, tone('wav', 1), { as: p.auth })).status).toBe(403);
    expect(
      (
        await http()
          .get(`${API}/media/playback?endpoint_sid=${vm.endpoint_sid}&file_sid=x`)
          .set(...p.auth)
      ).status,
    ).toBe(403);
    expect(
      (
        await http()
          .get(`${API}/media/callbacks`)
          .set(...p.auth)
      ).status,
    ).toBe(403);
  });

  test(
    "media.manage is the operator's alone: a partner cannot be created " + 'with it, nor given it later (422)',
    async () => {
      const created = await http()
        .post(`${API}/partners`)
        .set(...adminAuth())
        .send({
          login: `m${Date.now()}`,
          password: 'partner-password-1',
          available_scopes: ['media.manage', 'storage.read'],
        });
      expect(created.status).toBe(422);
      expect(created.body.errors[0]).toMatchObject({ field: 'available_scopes' });
      expect(created.body.errors[0].message).toMatch(/media\.manage/);
      const patched = await http()
        .patch(`${API}/partners/${p.partner_sid}`)
        .set(...adminAuth())
        .send({ available_scopes: ['media.manage'] });
      expect(patched.status).toBe(422);
      const whoami = await http()
        .get(`${API}/oauth/whoami`)
        .set(...adminAuth());
      expect(whoami.body.available_scopes).toContain('media.manage');
      const me = await http()
        .get(`${API}/oauth/whoami`)
        .set(...p.auth);
      expect(me.body.available_scopes).not.toContain('media.manage');
    },
  );
});

describe('which container a recording goes to', () => {
  test(
    "FlexML: the Record verb's container_sid, else the endpoint's " + "container_sid, else the partner's default",
    async () => {
      const property = await createContainer(p);
      const verb = await createContainer(p);
      const bare = await endpoint(p, 'flexml');
      const withProperty = await endpoint(p, 'flexml', { container_sid: property.container_sid });
      const a = await record({ endpoint_sid: bare.endpoint_sid });
      expect(a.status).toBe(201);
      expect(a.body.container_sid).toBe(await defaultContainer(p));
      const b = await record({ endpoint_sid: withProperty.endpoint_sid });
      expect(b.body.container_sid).toBe(property.container_sid);
      const c = await record({ endpoint_sid: withProperty.endpoint_sid, container_sid: verb.container_sid });
      expect(c.body.container_sid).toBe(verb.container_sid);
    },
  );

  test(
    'Conference and Voicemail: their container_sid, else the default; they ' +
      'cannot name one per recording (422 container_sid)',
    async () => {
      const c = await createContainer(p);
      for (const type of ['conference', 'voicemail']) {
        const own = await endpoint(p, type, { container_sid: c.container_sid });
        expect((await record({ endpoint_sid: own.endpoint_sid })).body.container_sid).toBe(c.container_sid);
        const bare = await endpoint(p, type);
        expect((await record({ endpoint_sid: bare.endpoint_sid })).body.container_sid).toBe(await defaultContainer(p));
        const override = await record({ endpoint_sid: own.endpoint_sid, container_sid: c.container_sid });
        expect(override.status).toBe(422);
        expect(override.body.errors[0]).toMatchObject({ field: 'container_sid' });
      }
    },
  );

  test(
    'types that do not record are a 422 naming endpoint_sid; an unknown ' +
      "endpoint or another partner's container a 404",
    async () => {
      for (const type of ['mediator', 'third_party', 'conference_playback']) {
        const e = await endpoint(
          p,
          type,
          type === 'conference_playback'
            ? { conference_endpoint_sid: (await endpoint(p, 'conference')).endpoint_sid }
            : {},
        );
        const res = await record({ endpoint_sid: e.endpoint_sid });
        expect({ type, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({
          type,
          status: 422,
          field: 'endpoint_sid',
        });
      }
      expect((await record({ endpoint_sid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      const other = await newPartner();
      const theirs = await createContainer(other);
      const flexml = await endpoint(p, 'flexml');
      const res = await record({ endpoint_sid: flexml.endpoint_sid, container_sid: theirs.container_sid });
      expect(res.status).toBe(404);
      expectErrorBody(res.body);
      expect((await record({})).status).toBe(400);
    },
  );
});

describe('the stored recording', () => {
  test(
    'is an audio File classified media, with its duration and a name from ' +
      'call_sid (or file_sid); playable and served like any file',
    async () => {
      const vm = await endpoint(p, 'flexml');
      const named = await record({ endpoint_sid: vm.endpoint_sid, call_sid: 'call-42' }, tone('wav', 2));
      expect(named.status).toBe(201);
      expect(named.body).toMatchObject({
        type: 'audio',
        content_classification: 'media',
        name: 'call-42.wav',
        partner_sid: p.partner_sid,
      });
      expect(named.body.content_duration).toBeGreaterThan(1.5);
      const unnamed = await record({ endpoint_sid: vm.endpoint_sid }, tone('mp3', 1), { type: 'audio/mpeg' });
      expect(unnamed.body.name).toBe(`${unnamed.body.file_sid}.mp3`);
      // The partner sees it like any other file (the usual events ran: listed, counted, published).
      expect((await fileOf(named.body.file_sid)).file_sid).toBe(named.body.file_sid);
      const pub = await request(instance().storageUrl).get(new URL(named.body.publish_uri).pathname);
      expect(pub.status).toBe(200);
      expect(pub.headers['content-type']).toBe('audio/x-wav');
      const back = await play({ endpoint_sid: vm.endpoint_sid, file_sid: named.body.file_sid });
      expect(back.status).toBe(200);
      expect((back.body as Buffer).equals(tone('wav', 2))).toBe(true);
    },
  );

  test(
    'not audio: a non-audio Content-Type is a 415; undecodable bytes a 422 ' + 'naming data; neither leaves anything',
    async () => {
      const c = await createContainer(p);
      const e = await endpoint(p, 'flexml', { container_sid: c.container_sid });
      expect(
        (await record({ endpoint_sid: e.endpoint_sid }, Buffer.from('hello'), { type: 'text/plain' })).status,
      ).toBe(415);
      const junk = await record(
        { endpoint_sid: e.endpoint_sid },
        Buffer.from('not audio at all, just text'.repeat(100)),
      );
      expect(junk.status).toBe(422);
      expect(junk.body.errors[0]).toMatchObject({ field: 'data' });
      expect(
        (
          await http()
            .get(`${API}/storage/containers/${c.container_sid}`)
            .set(...p.auth)
        ).body,
      ).toMatchObject({ total_files: 0, total_bytes: 0 });
    },
  );

  test("a Voicemail recording longer than its endpoint's max_duration: 422 naming it, nothing kept", async () => {
    const c = await createContainer(p);
    const vm = await endpoint(p, 'voicemail', { container_sid: c.container_sid, max_duration: 2 });
    const tooLong = await record({ endpoint_sid: vm.endpoint_sid }, tone('wav', 4));
    expect(tooLong.status).toBe(422);
    expectErrorBody(tooLong.body);
    expect(tooLong.body.errors[0]).toMatchObject({ field: 'max_duration' });
    expect(tooLong.body.errors[0].message).toMatch(/max_duration is 2 s/);
    const counts = async () =>
      (
        await http()
          .get(`${API}/storage/containers/${c.container_sid}`)
          .set(...p.auth)
      ).body;
    expect(await counts()).toMatchObject({ total_files: 0, total_bytes: 0 });
    // Within the limit (and its one-second tolerance), and with no limit at all: stored.
    expect((await record({ endpoint_sid: vm.endpoint_sid }, tone('wav', 2))).status).toBe(201);
    const unlimited = await endpoint(p, 'voicemail', { container_sid: c.container_sid });
    expect((await record({ endpoint_sid: unlimited.endpoint_sid }, tone('wav', 4))).status).toBe(201);
    expect(await counts()).toMatchObject({ total_files: 2 });
  });

  test('upload rules hold: quota, reject threshold, classification', async () => {
    const quota = await createContainer(p, { quota_files: 1 });
    const e = await endpoint(p, 'flexml', { container_sid: quota.container_sid });
    expect((await record({ endpoint_sid: e.endpoint_sid })).status).toBe(201);
    const full = await record({ endpoint_sid: e.endpoint_sid });
    expect(full.status).toBe(422);
    expect(full.body.errors[0]).toMatchObject({ field: 'quota_files' });

    const reject = await createContainer(p, {
      threshold_action: 'reject',
      threshold_files: 1,
      threshold_grace_period: 0,
    });
    const r = await endpoint(p, 'conference', { container_sid: reject.container_sid });
    expect((await record({ endpoint_sid: r.endpoint_sid })).status).toBe(201);
    const over = await record({ endpoint_sid: r.endpoint_sid });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ field: 'threshold_files' });

    const blocked = await createContainer(p, { blocked_classifications: ['media'] });
    const b = await endpoint(p, 'voicemail', { container_sid: blocked.container_sid });
    const refused = await record({ endpoint_sid: b.endpoint_sid });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ field: 'content_classification' });
  });
});

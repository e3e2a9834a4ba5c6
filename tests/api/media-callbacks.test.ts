/**
 * Voicemail (docs/interface-notes.md, Media plane): the greeting must be the publish_uri of a published
 * file of the same partner; a recording for a Voicemail endpoint with a callback_url is announced
 * to it — once, signed as docs/media-plane.md says (checked here the way a receiver would), retried
 * when the receiver fails — and the deliveries are listed for the operator.
 */
import { createHmac } from 'node:crypto';
import { API, adminAuth, http, newPartner, type TestPartner } from '../harness/api';
import { callbackReceiver, endpoint, record, storedFile, type Received } from '../support/media-plane';
import { consistently, until } from '../support/poll';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
});

/** What a receiver does: HMAC-SHA256 keyed with the endpoint's password over `<t>.<content>`. */
function signatureValid(r: Received, key: string): boolean {
  const header = String(r.headers['x-patchbay-signature'] ?? '');
  const [, t, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  if (!t) return false;
  const content = r.method === 'GET' ? (r.url.split('?')[1] ?? '') : r.body;
  return (
    createHmac('sha256', key).update(`${t}.${content}`).digest('hex') === mac &&
    Math.abs(Date.now() / 1000 - Number(t)) < 300
  );
}

const deliveries = async (fileSid: string) =>
  (
    await http()
      .get(`${API}/media/callbacks`)
      .query({ filter: `file_sid eq "${fileSid}"` })
      .set(...adminAuth())
  ).body.items;

describe('the greeting', () => {
  test(
    'must be the publish_uri of a published file of the same partner, on ' +
      'create and on update (422 properties.greeting)',
    async () => {
      const mine = await storedFile(p);
      const hidden = await storedFile(p, { publish: 'no' });
      const theirs = await storedFile(await newPartner());
      const storage = new URL(mine.publish_uri).origin;
      const bad = [
        'https://elsewhere.example/greeting.wav',
        `${storage}/f/${hidden.file_sid}`,
        theirs.publish_uri,
        `${storage}/f/00000000-0000-4000-8000-000000000000`,
        'not a url',
      ];
      for (const greeting of bad) {
        const res = await http()
          .post(`${API}/endpoints`)
          .set(...p.auth)
          .send({ type: 'voicemail', properties: { greeting } });
        expect({ greeting, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({
          greeting,
          status: 422,
          field: 'properties.greeting',
        });
      }
      const vm = await endpoint(p, 'voicemail', { greeting: mine.publish_uri });
      expect(vm.properties.greeting).toBe(mine.publish_uri);
      const patched = await http()
        .patch(`${API}/endpoints/${vm.endpoint_sid}`)
        .set(...p.auth)
        .send({ properties: { greeting: theirs.publish_uri } });
      expect(patched.status).toBe(422);
      expect(patched.body.errors[0]).toMatchObject({ field: 'properties.greeting' });
      const cleared = await http()
        .patch(`${API}/endpoints/${vm.endpoint_sid}`)
        .set(...p.auth)
        .send({ properties: { greeting: null } });
      expect(cleared.status).toBe(200);
    },
  );
});

describe('the callback after a Voicemail recording', () => {
  test('POST: delivered once, with the documented fields and a valid signature', async () => {
    const receiver = await callbackReceiver();
    try {
      const vm = await endpoint(p, 'voicemail', { callback_url: receiver.url });
      const rec = await record({ endpoint_sid: vm.endpoint_sid, call_sid: 'call-7' });
      expect(rec.status).toBe(201);
      await until('the callback', 15_000, () => (receiver.received.length > 0 ? true : undefined));
      await consistently(() => expect(receiver.received).toHaveLength(1), 1000); // nothing more comes
      const [got] = receiver.received;
      expect(got.method).toBe('POST');
      expect(got.headers['content-type']).toBe('application/json');
      expect(signatureValid(got, vm.properties.password)).toBe(true);
      expect(signatureValid(got, 'another-key')).toBe(false);
      expect(JSON.parse(got.body)).toEqual({
        endpoint_sid: vm.endpoint_sid,
        file_sid: rec.body.file_sid,
        container_sid: rec.body.container_sid,
        publish_uri: rec.body.publish_uri,
        content_duration: rec.body.content_duration,
        file_bytes: rec.body.file_bytes,
        call_sid: 'call-7',
        date_created: rec.body.date_created,
        partner_sid: p.partner_sid,
      });
      await until('the delivery recorded', 5_000, async () =>
        (await deliveries(rec.body.file_sid))[0]?.state === 'delivered' ? true : undefined,
      );
    } finally {
      await receiver.close();
    }
  });

  test('GET: the same fields as query parameters, the signature over the query string', async () => {
    const receiver = await callbackReceiver();
    try {
      const vm = await endpoint(p, 'voicemail', { callback_url: receiver.url, callback_method: 'GET' });
      const rec = await record({ endpoint_sid: vm.endpoint_sid });
      await until('the callback', 15_000, () => (receiver.received.length > 0 ? true : undefined));
      const [got] = receiver.received;
      expect(got.method).toBe('GET');
      const q = new URLSearchParams(got.url.split('?')[1]);
      expect(q.get('file_sid')).toBe(rec.body.file_sid);
      expect(q.get('call_sid')).toBe('');
      expect(signatureValid(got, vm.properties.password)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  test('retried with backoff after the receiver fails twice; the deliveries list shows it', async () => {
    const receiver = await callbackReceiver(2);
    try {
      const vm = await endpoint(p, 'voicemail', { callback_url: receiver.url });
      const rec = await record({ endpoint_sid: vm.endpoint_sid });
      await until('three attempts', 20_000, () => (receiver.received.length >= 3 ? true : undefined));
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      for (const r of receiver.received) expect(signatureValid(r, vm.properties.password)).toBe(true);
      const [d] = await until('the delivery recorded', 5_000, async () => {
        const items = await deliveries(rec.body.file_sid);
        return items[0]?.state === 'delivered' ? items : undefined;
      });
      expect(d).toMatchObject({
        attempts: 3,
        state: 'delivered',
        endpoint_sid: vm.endpoint_sid,
        last_error: null,
        callback_url: receiver.url,
      });
    } finally {
      await receiver.close();
    }
  });

  test('no callback_url, or not a Voicemail endpoint: nothing is sent or listed', async () => {
    const vm = await endpoint(p, 'voicemail');
    const rec = await record({ endpoint_sid: vm.endpoint_sid });
    expect(rec.status).toBe(201);
    await consistently(async () => expect(await deliveries(rec.body.file_sid)).toEqual([]), 500, 100);
  });
});

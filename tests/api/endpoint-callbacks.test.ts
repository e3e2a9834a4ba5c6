/**
 * A partner sees its own callbacks (decisions §41): `GET /endpoints/{sid}/callbacks` lists the
 * deliveries of its Voicemail endpoint — state, attempts, last error, next retry — read-only;
 * another partner's endpoint is a 404 to it.
 */
import { API, http, newPartner, type TestPartner } from '../harness/api';
import { callbackReceiver, endpoint, record } from '../support/media-plane';
import { until } from '../support/poll';
import type { ApiJson } from '../support/api-json';

let p: TestPartner;
let other: TestPartner;
beforeAll(async () => {
  [p, other] = await Promise.all([newPartner(), newPartner()]);
});

const deliveries = (who: TestPartner, sid: string, query = '') =>
  http()
    .get(`${API}/endpoints/${sid}/callbacks${query}`)
    .set(...who.auth);

test('a failing target: the partner sees the attempts, the last error and the next retry', async () => {
  const receiver = await callbackReceiver(1000);
  try {
    const vm = await endpoint(p, 'voicemail', { callback_url: receiver.url });
    const quiet = await endpoint(p, 'voicemail');
    const rec = await record({ endpoint_sid: vm.endpoint_sid });
    expect(rec.status).toBe(201);
    await until('a failed attempt', 15_000, () => (receiver.received.length > 0 ? true : undefined));
    const listed = await until('the attempt to be recorded', 15_000, async () => {
      const res = await deliveries(p, vm.endpoint_sid);
      const item = (res.body.items as ApiJson[] | undefined)?.[0];
      return item && item.attempts >= 1 && item.last_error ? res : undefined;
    });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({
      endpoint_sid: vm.endpoint_sid,
      file_sid: rec.body.file_sid,
      partner_sid: p.partner_sid,
      state: 'pending',
    });
    expect(listed.body.items[0].last_error).toMatch(/500/);
    expect(listed.body.items[0].date_next_attempt).not.toBeNull();
    expect((await deliveries(p, vm.endpoint_sid, '?filter=state eq "delivered"')).body.items).toEqual([]);
    expect((await deliveries(p, quiet.endpoint_sid)).body.items).toEqual([]);
    // Another partner: as unknown as a missing endpoint.
    expect((await deliveries(other, vm.endpoint_sid)).status).toBe(404);
    expect((await deliveries(p, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  } finally {
    await receiver.close();
  }
}, 60_000);

import { API, http, newPartner, type TestPartner } from '../harness/api';
import { ENDPOINT_KEYS, created, endpointsAs, freshAddress, systemGatewayOf } from './endpoints-kit';
import type { ApiJson } from '../support/api-json';

let partner: TestPartner;
let ep: ReturnType<typeof endpointsAs>;
/** The partner's endpoints in creation order: the System Gateway, then 11 made here. */
let all: Array<ApiJson>;
let shared: { ip: string; port: number };

const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;
const sids = (items: Array<{ endpoint_sid: string } | ApiJson>): string[] => items.map((i) => String(i.endpoint_sid));

beforeAll(async () => {
  partner = await newPartner();
  ep = endpointsAs(partner);
  shared = freshAddress();
  const sg = await systemGatewayOf(partner);
  all = [sg];
  // Sequential, so creation order (the default order) is known.
  for (let i = 0; i < 8; i++)
    all.push(
      await created(partner, {
        type: 'third_party',
        name: `tp-${i}`,
        capacity: i,
        addresses: [freshAddress(), ...(i === 5 ? [shared] : [])],
      }),
    );
  all.push(await created(partner, { type: 'flexml', name: 'flex' }));
  all.push(await created(partner, { type: 'voicemail', name: 'vm', attributes: { key: 'dept', value: 'sales' } }));
  all.push(await created(partner, { type: 'mediator', name: 'med' }));
});

describe('GET /endpoints', () => {
  test('the envelope, in creation order by default, only the partner’s own endpoints', async () => {
    const res = await ep.list('?limit=5');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['count', 'has_more', 'items', 'limit', 'offset', 'pagination', 'total']);
    expect(res.body).toMatchObject({ count: 5, has_more: true, limit: 5, offset: 0, total: 12 });
    expect(sids(res.body.items)).toEqual(sids(all.slice(0, 5)));
    expect(res.body.items[1]).toEqual(all[1]);
    for (const item of res.body.items) expect(Object.keys(item)).toEqual(ENDPOINT_KEYS);
    expect(res.body.pagination.previous).toBeUndefined();
    expect(res.body.pagination.next).toMatch(/\/core\/v2\/endpoints\?.*offset=5/);
  });

  test('next and previous walk every endpoint once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `${API}/endpoints?limit=5`;
    let pages = 0;
    while (url) {
      const res: {
        status: number;
        body: { items: Array<{ endpoint_sid: string }>; pagination: { next?: string; previous?: string } };
      } = await http()
        .get(url)
        .set(...partner.auth);
      expect(res.status).toBe(200);
      seen.push(...sids(res.body.items));
      pages++;
      if (pages === 2) {
        const prev = new URL(res.body.pagination.previous!);
        const back = await http()
          .get(prev.pathname + prev.search)
          .set(...partner.auth);
        expect(sids(back.body.items)).toEqual(sids(all.slice(0, 5)));
      }
      url = res.body.pagination.next
        ? new URL(res.body.pagination.next).pathname + new URL(res.body.pagination.next).search
        : undefined;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(sids(all));
  });

  test('filter addresses.ip eq "<ip>" matches an endpoint through any of its addresses', async () => {
    const res = await ep.list(q(`addresses.ip eq "${shared.ip}"`));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.items[0]).toEqual(all[6]);
    const first = await ep.list(q(`addresses.ip eq "${all[6].addresses[0].ip}"`));
    expect(sids(first.body.items)).toEqual([all[6].endpoint_sid]);
    const none = await ep.list(q('addresses.ip eq "192.0.2.254"'));
    expect(none.body).toMatchObject({ count: 0, total: 0, items: [], has_more: false, pagination: {} });
    const both = await ep.list(q(`addresses.ip eq "${shared.ip}" and addresses.port eq ${shared.port}`));
    expect(both.body.total).toBe(1);
  });

  test('another partner does not see these endpoints, even by filtering on their address', async () => {
    const other = endpointsAs(await newPartner());
    const res = await other.list(q(`addresses.ip eq "${shared.ip}"`));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  test('filters on type, name, capacity, attributes, with in, like and ne', async () => {
    expect((await ep.list(q('type eq "third_party"'))).body.total).toBe(8);
    expect(sids((await ep.list(q('type in ("flexml", "mediator")'))).body.items)).toEqual([
      all[9].endpoint_sid,
      all[11].endpoint_sid,
    ]);
    expect((await ep.list(q('name like "tp-%" and capacity ge 6'))).body.total).toBe(2);
    expect(sids((await ep.list(q('attributes.value eq "sales"'))).body.items)).toEqual([all[10].endpoint_sid]);
    expect((await ep.list(q('type ne "third_party"'))).body.total).toBe(4);
    expect((await ep.list(q('auth_required eq true'))).body.total).toBe(12);
  });

  test('order by an attribute, both directions; shuffle', async () => {
    const desc = await ep.list('?order=name+desc&limit=3');
    expect(desc.body.items.map((i: { name: string }) => i.name)).toEqual(['vm', 'tp-7', 'tp-6']);
    const asc = await ep.list('?order=capacity&limit=12');
    const caps = asc.body.items.map((i: { capacity: number }) => i.capacity);
    expect(caps).toEqual([...caps].sort((a: number, b: number) => a - b));
    const shuffled = await ep.list('?order=shuffle&limit=12');
    expect(shuffled.status).toBe(200);
    expect([...sids(shuffled.body.items)].sort()).toEqual([...sids(all)].sort());
  });

  test('field filtering on every item', async () => {
    const res = await ep.list(`${q('type eq "third_party"')}&include_fields=endpoint_sid,addresses.ip&limit=2`);
    expect(res.body.items).toEqual([
      { addresses: [{ ip: all[1].addresses[0].ip }], endpoint_sid: all[1].endpoint_sid },
      { addresses: [{ ip: all[2].addresses[0].ip }], endpoint_sid: all[2].endpoint_sid },
    ]);
    const excl = await ep.list('?exclude_fields=properties,addresses,attributes&limit=1');
    expect(Object.keys(excl.body.items[0])).toEqual(
      ENDPOINT_KEYS.filter((k) => !['properties', 'addresses', 'attributes'].includes(k)),
    );
  });

  test('with_related=true adds the partner object to every item', async () => {
    const res = await ep.list('?with_related=true&limit=3');
    expect(res.status).toBe(200);
    for (const item of res.body.items)
      expect(item.partner).toMatchObject({
        partner_sid: partner.partner_sid,
        login: partner.login,
        name: expect.any(String),
      });
    const withFields = await ep.list('?with_related=true&limit=1&include_fields=partner.partner_sid');
    expect(withFields.body.items).toEqual([{ partner: { partner_sid: partner.partner_sid } }]);
    const without = await ep.list('?limit=1');
    expect(without.body.items[0].partner).toBeUndefined();
  });

  test.each([
    ['?limit=1001', 'limit'],
    ['?limit=0', 'limit'],
    ['?offset=-1', 'offset'],
    ['?order=colour', 'order'],
    [q('colour eq "red"'), 'filter'],
    [q('capacity eq "many"'), 'filter'],
    [q('addresses.ip eq'), 'filter'],
    ['?after=9b2f5a52-5b9c-4d0e-9b62-1a2b3c4d5e6f', 'after'],
    ['?include_fields=colour', 'include_fields'],
    ['?with_related=yes', 'with_related'],
  ])('bad parameter %s: 400 naming it', async (query, field) => {
    const res = await ep.list(query);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

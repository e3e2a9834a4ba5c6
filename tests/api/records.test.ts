/**
 * Call and message detail record lists through the public API: 2,500 records (many sharing a
 * timestamp) are ingested, then walked forwards with `after` and backwards with `before` through
 * the `pagination` URLs; every record must be seen exactly once, in the total order
 * (date, then dr_sid). Plus the invalid parameter combinations, filters and field filtering.
 */
import { randomUUID } from 'node:crypto';
import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';

interface Item {
  dr_sid: string;
  [k: string]: unknown;
}
interface Page {
  status: number;
  body: {
    count: number;
    has_more: boolean;
    items: Item[];
    limit: number;
    offset: number;
    total: null;
    pagination: { next?: string; previous?: string };
    errors?: Array<{ field: string }>;
  };
}

const N = 2500;
/** 2,500 records over 700 distinct instants: most instants are shared by several records. */
const instant = (i: number) =>
  new Date(Date.UTC(2024, 2, 1) + ((i * 7919) % 700) * 1000 + ((i * 31) % 2) * 250).toISOString();

const KINDS = [
  {
    name: 'call_drs',
    path: '/calls/call_drs',
    orderField: 'date_stop',
    otherDate: 'date_start',
    make: (i: number) => ({
      dr_sid: randomUUID(),
      date_start: new Date(Date.parse(instant(i)) - 60_000).toISOString(),
      date_stop: instant(i),
      direction: i % 3 === 0 ? 'inbound' : 'outbound',
      price: i % 50 === 0 ? '0.25' : `0.00${i % 10}`,
      rate: '0.005',
      number_src: `1555${String(i).padStart(7, '0')}`,
      sipcause: '200',
    }),
    // docs/interface-notes.md, Detail records and countries: call records.
    fields: [
      'cic',
      'cic_original',
      'cic_transformed',
      'codec_dst',
      'codec_src',
      'date_insert',
      'date_start',
      'date_stop',
      'date_talk',
      'direction',
      'disconnect_originator',
      'diversion_dst',
      'diversion_src',
      'dr_sid',
      'duration',
      'duration_billing',
      'endpoint_sid_dst',
      'endpoint_sid_src',
      'identity',
      'ip_dst',
      'ip_src',
      'number_billing',
      'number_dst',
      'number_dst_original',
      'number_dst_transformed',
      'number_external',
      'number_src',
      'number_src_original',
      'number_src_transformed',
      'partner_sid',
      'price',
      'price_lcr_dst',
      'price_lcr_src',
      'rate',
      'rate_lcr_dst',
      'rate_lcr_src',
      'sipcallid_dst',
      'sipcallid_src',
      'sipcause',
      'stir_attest',
      'stir_identity',
      'stir_orig_id',
      'stir_signing_entity',
      'stir_verstat',
      'transcoded',
      'trunk_group_sid_dst',
      'trunk_group_sid_src',
      'user_data',
      'version',
    ],
  },
  {
    name: 'message_drs',
    path: '/sms/message_drs',
    orderField: 'date_insert',
    otherDate: 'date_sent',
    make: (i: number) => ({
      dr_sid: randomUUID(),
      date_insert: instant(i),
      date_sent: instant(i),
      type: i % 4 === 0 ? 'mms' : 'sms',
      direction: i % 3 === 0 ? 'inbound' : 'outbound',
      price: i % 50 === 0 ? '0.25' : `0.00${i % 10}`,
      rate: '0.005',
      mcc: 310,
      mnc: 260,
      message: `hello ${i}`,
      message_segments: 1,
    }),
    // docs/interface-notes.md, Detail records and countries: message records.
    fields: [
      'a2p_campaign',
      'date_changed',
      'date_insert',
      'date_sent',
      'date_start',
      'date_stop',
      'delay_sent',
      'direction',
      'dr_sid',
      'mcc',
      'mcc_mnc_price',
      'mcc_mnc_rate',
      'media_urls',
      'message',
      'message_segments',
      'mnc',
      'number_billing',
      'number_dst',
      'number_external',
      'number_group_dst',
      'number_src',
      'p2p_nnid',
      'partner_sid',
      'passthrough_price',
      'passthrough_rate',
      'price',
      'provider',
      'rate',
      'registration_type',
      'status',
      'type',
      'user_data',
      'vendor_error_code',
      'version',
    ],
  },
] as const;

describe.each(KINDS)('$name', (kind) => {
  let partner: TestPartner;
  let other: TestPartner;
  let records: Array<Record<string, unknown> & { dr_sid: string }>;
  /** dr_sids in the list's total order: date asc, then dr_sid asc. */
  let ordered: string[];

  const get = (pathAndQuery: string, who: TestPartner = partner): Promise<Page> =>
    http()
      .get(pathAndQuery.startsWith('http') ? relative(pathAndQuery) : `${API}${pathAndQuery}`)
      .set(...who.auth);
  const relative = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  const sids = (p: Page) => p.body.items.map((i) => i.dr_sid);

  beforeAll(async () => {
    [partner, other] = await Promise.all([newPartner(), newPartner()]);
    records = Array.from({ length: N }, (_, i) => kind.make(i));
    const res = await http()
      .post(`${API}${kind.path}`)
      .set(...partner.auth)
      .set('Content-Type', 'application/x-ndjson')
      .send(records.map((r) => JSON.stringify(r)).join('\n'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: N, stored: N, duplicates: 0, rejected: 0, complete: true });
    const otherRes = await http()
      .post(`${API}${kind.path}`)
      .set(...other.auth)
      .send([kind.make(1), kind.make(2)]);
    expect(otherRes.body.stored).toBe(2);
    const date = (r: Record<string, unknown>) => Date.parse(r[kind.orderField] as string);
    ordered = [...records].sort((a, b) => date(a) - date(b) || (a.dr_sid < b.dr_sid ? -1 : 1)).map((r) => r.dr_sid);
    expect(new Set(records.map((r) => r[kind.orderField])).size).toBeLessThan(N / 2);
  }, 120_000);

  test('walks forwards with after through pagination.next: each record once, in order', async () => {
    const first = await get(`${kind.path}?limit=100&order=${kind.orderField}`);
    expect(first.status).toBe(200);
    const seen = sids(first);
    let page = await get(`${kind.path}?limit=100&after=${seen[seen.length - 1]}`);
    let pages = 1;
    for (;;) {
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ offset: 0, total: null, limit: 100 });
      seen.push(...sids(page));
      pages++;
      if (!page.body.pagination.next) break;
      const next = new URL(page.body.pagination.next);
      expect(next.searchParams.get('after')).toBe(seen[seen.length - 1]);
      expect(next.searchParams.has('offset')).toBe(false);
      // A full page always carries next (issue 41): has_more says whether records actually follow.
      expect(page.body.has_more).toBe(seen.length < N);
      page = await get(page.body.pagination.next);
    }
    expect(page.body.has_more).toBe(false);
    // N is a multiple of the page size: the last full page leads to one empty page that ends the walk.
    expect(page.body).toMatchObject({ count: 0, items: [] });
    expect(pages).toBe(N / 100 + 1);
    expect(seen).toEqual(ordered);
  }, 120_000);

  test('walks backwards with before through pagination.previous: each record once, in order', async () => {
    const last = ordered[N - 1];
    const seen: string[][] = [[last]];
    let page = await get(`${kind.path}?limit=100&before=${last}&order=${kind.orderField}+asc`);
    for (;;) {
      expect(page.status).toBe(200);
      seen.unshift(sids(page));
      if (!page.body.pagination.previous) break;
      expect(new URL(page.body.pagination.previous).searchParams.get('before')).toBe(sids(page)[0]);
      expect(page.body.pagination.next).toBeDefined();
      page = await get(page.body.pagination.previous);
    }
    expect(seen.flat()).toEqual(ordered);
  }, 120_000);

  test('descending order: after walks newest to oldest', async () => {
    const desc = [...ordered].reverse();
    const seen: string[] = [];
    let url = `${kind.path}?limit=250&order=${kind.orderField}+desc&after=${desc[0]}`;
    for (;;) {
      const page = await get(url);
      expect(page.status).toBe(200);
      seen.push(...sids(page));
      if (!page.body.pagination.next) break;
      url = page.body.pagination.next;
    }
    expect(seen).toEqual(desc.slice(1));
  }, 120_000);

  test('after+before is a window; next keeps before and stops at it', async () => {
    const [a, b] = [ordered[100], ordered[351]];
    const seen: string[] = [];
    let url = `${kind.path}?limit=100&after=${a}&before=${b}`;
    for (;;) {
      const page = await get(url);
      expect(page.status).toBe(200);
      seen.push(...sids(page));
      if (!page.body.pagination.next) break;
      expect(new URL(page.body.pagination.next).searchParams.get('before')).toBe(b);
      url = page.body.pagination.next;
    }
    expect(seen).toEqual(ordered.slice(101, 351));
  });

  test('after the last record is an empty page, not a restart', async () => {
    const page = await get(`${kind.path}?after=${ordered[N - 1]}`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      count: 0,
      has_more: false,
      items: [],
      limit: 10,
      offset: 0,
      pagination: {},
      total: null,
    });
  });

  test(
    'items carry every field (null when unset), alphabetical; prices are ' + 'decimal strings; total is null',
    async () => {
      const page = await get(`${kind.path}?limit=3`);
      expect(page.body.total).toBeNull();
      for (const item of page.body.items) {
        expect(Object.keys(item)).toEqual(kind.fields);
        expect(item.partner_sid).toBe(partner.partner_sid);
        expect(typeof item.price).toBe('string');
        expect(item[kind.orderField]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      const one = records[7];
      const got = await http()
        .get(`${API}${kind.path}/${one.dr_sid}`)
        .set(...partner.auth);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        dr_sid: one.dr_sid,
        price: one.price,
        rate: '0.005',
        [kind.orderField]: one[kind.orderField],
      });
    },
  );

  test("GET by dr_sid: field filtering; another partner's or unknown sid is a 404", async () => {
    const one = records[3];
    const some = await http()
      .get(`${API}${kind.path}/${one.dr_sid}?include_fields=dr_sid,price`)
      .set(...partner.auth);
    expect(some.body).toEqual({ dr_sid: one.dr_sid, price: one.price });
    for (const [sid, who] of [
      [one.dr_sid, other],
      [randomUUID(), partner],
      ['not-a-sid', partner],
    ] as const) {
      const res = await http()
        .get(`${API}${kind.path}/${sid}`)
        .set(...who.auth);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Cannot find item by SID');
      expectErrorBody(res.body);
    }
  });

  test(
    'filter and field filtering work with cursors; a cursor works with or ' + 'without the filter that produced it',
    async () => {
      const filter = encodeURIComponent('direction eq "inbound" and price ge 0.005');
      const want = ordered.filter((sid) => {
        const r = records.find((x) => x.dr_sid === sid)!;
        return r.direction === 'inbound' && Number(r.price) >= 0.005;
      });
      const seen: string[] = [];
      let url = `${kind.path}?limit=50&filter=${filter}&include_fields=dr_sid,direction,price&after=${ordered[0]}`;
      for (;;) {
        const page = await get(url);
        expect(page.status).toBe(200);
        for (const item of page.body.items) expect(Object.keys(item)).toEqual(['direction', 'dr_sid', 'price']);
        seen.push(...sids(page));
        if (!page.body.pagination.next) break;
        expect(new URL(page.body.pagination.next).searchParams.get('filter')).toBe(
          'direction eq "inbound" and price ge 0.005',
        );
        url = page.body.pagination.next;
      }
      expect(seen).toEqual(want.filter((s) => s !== ordered[0]));
      // A sid the filter excludes still positions the cursor.
      const outside = ordered.find((s) => !want.includes(s))!;
      const page = await get(`${kind.path}?limit=1&filter=${filter}&after=${outside}`);
      expect(sids(page)).toEqual([want.find((s) => ordered.indexOf(s) > ordered.indexOf(outside))]);
      const excl = await get(`${kind.path}?limit=1&exclude_fields=price,rate`);
      expect(Object.keys(excl.body.items[0])).toEqual(kind.fields.filter((f) => f !== 'price' && f !== 'rate'));
    },
  );

  test('offset paging still works, with total null', async () => {
    const page = await get(`${kind.path}?limit=5&offset=10&order=${kind.orderField}+asc`);
    expect(sids(page)).toEqual(ordered.slice(10, 15));
    expect(page.body.total).toBeNull();
    expect(new URL(page.body.pagination.next!).searchParams.get('offset')).toBe('15');
    expect(new URL(page.body.pagination.previous!).searchParams.get('offset')).toBe('5');
  });

  test('a partner sees only its own records', async () => {
    const page = await get(`${kind.path}?limit=1000`, other);
    expect(page.body.items).toHaveLength(2);
    const res = await get(`${kind.path}?after=${ordered[0]}`, other);
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toEqual(['after']);
  });

  test.each([
    ['offset=5&after=A', 'offset'],
    ['offset=1&before=A', 'offset'],
    ['offset=1&after=A&before=B', 'offset'],
    ['after=A&order=OTHER', 'order'],
    ['before=A&order=OTHER+desc', 'order'],
    ['after=A&order=dr_sid', 'order'],
    ['after=A&order=shuffle', 'order'],
    ['after=not-a-secure-id', 'after'],
    ['before=not-a-secure-id', 'before'],
    ['before=UNKNOWN', 'before'],
    ['limit=0', 'limit'],
    ['limit=1001&after=A', 'limit'],
    ['order=nope+asc', 'order'],
    [`filter=${encodeURIComponent('nope eq 1')}`, 'filter'],
    [`filter=${encodeURIComponent('price gt cheap')}`, 'filter'],
    ['include_fields=nope', 'include_fields'],
  ])('%s is a 400 naming %s', async (query, param) => {
    const q = query
      .replace('=A', `=${ordered[5]}`)
      .replace('=B', `=${ordered[50]}`)
      .replace('OTHER', kind.otherDate)
      .replace('UNKNOWN', randomUUID());
    const res = await get(`${kind.path}?${q}`);
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.errors?.map((e) => e.field)).toContain(param);
  });

  test('offset=0 is accepted with after', async () => {
    const res = await get(`${kind.path}?offset=0&limit=2&after=${ordered[0]}`);
    expect(sids(res)).toEqual(ordered.slice(1, 3));
  });
});

describe('scopes', () => {
  test('reading needs calls.manage/calls.read or sms.manage/sms.read', async () => {
    const none = await newPartner({ scopes: ['countries.read'] });
    const reader = await newPartner({ scopes: ['calls.read', 'sms.read'] });
    for (const path of [
      '/calls/call_drs',
      '/sms/message_drs',
      `/calls/call_drs/${randomUUID()}`,
      `/sms/message_drs/${randomUUID()}`,
    ]) {
      const res = await http()
        .get(`${API}${path}`)
        .set(...none.auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ errors: [], message: 'Forbidden' });
      expect([200, 404]).toContain(
        (
          await http()
            .get(`${API}${path}`)
            .set(...reader.auth)
        ).status,
      );
    }
  });
});

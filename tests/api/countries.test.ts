import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';

let partner: TestPartner;
beforeAll(async () => {
  partner = await newPartner();
});

const get = (path: string) =>
  http()
    .get(`${API}${path}`)
    .set(...partner.auth);

describe('GET /countries', () => {
  test('returns the envelope with alphabetical keys and every country field', async () => {
    const res = await get('/countries?limit=2');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['count', 'has_more', 'items', 'limit', 'offset', 'pagination', 'total']);
    expect(res.body).toMatchObject({ count: 2, has_more: true, limit: 2, offset: 0 });
    expect(res.body.total).toBeGreaterThan(240);
    expect(Object.keys(res.body.items[0])).toEqual([
      'capital',
      'common_name',
      'dialing_prefix',
      'domain',
      'iso_3166_alpha_2',
      'iso_3166_alpha_3',
      'iso_3166_numeric',
      'mcc',
      'official_name',
      'region',
      'subregion',
    ]);
    expect(res.body.pagination).toEqual({
      next: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/core\/v2\/countries\?/),
    });
  });

  test('pagination.next fetches the next page, and previous goes back', async () => {
    const first = await get('/countries?limit=2&order=iso_3166_alpha_3+asc');
    const nextUrl = new URL(first.body.pagination.next);
    expect(nextUrl.searchParams.get('offset')).toBe('2');
    expect(nextUrl.searchParams.get('order')).toBe('iso_3166_alpha_3 asc');
    const second = await http()
      .get(nextUrl.pathname + nextUrl.search)
      .set(...partner.auth);
    expect(second.status).toBe(200);
    expect(second.body.offset).toBe(2);
    expect(second.body.items[0].iso_3166_alpha_3 > first.body.items[1].iso_3166_alpha_3).toBe(true);
    const prevUrl = new URL(second.body.pagination.previous);
    const back = await http()
      .get(prevUrl.pathname + prevUrl.search)
      .set(...partner.auth);
    expect(back.body.items).toEqual(first.body.items);
  });

  test('walking every page with next sees each country exactly once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `${API}/countries?limit=100`;
    let total = 0;
    while (url) {
      const res: {
        status: number;
        body: { total: number; items: Array<{ iso_3166_alpha_3: string }>; pagination: { next?: string } };
      } = await http()
        .get(url)
        .set(...partner.auth);
      expect(res.status).toBe(200);
      total = res.body.total;
      seen.push(...res.body.items.map((c: { iso_3166_alpha_3: string }) => c.iso_3166_alpha_3));
      url = res.body.pagination.next
        ? new URL(res.body.pagination.next).pathname + new URL(res.body.pagination.next).search
        : undefined;
    }
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
  });

  test('the last page has no next and has_more false', async () => {
    const res = await get('/countries?limit=10&offset=240');
    expect(res.body.has_more).toBe(false);
    expect(res.body.pagination.next).toBeUndefined();
    expect(res.body.pagination.previous).toBeDefined();
  });

  test('filter, order and field filtering', async () => {
    const filter = encodeURIComponent('region eq "Europe" and common_name like "S%"');
    const res = await get(`/countries?filter=${filter}&order=common_name+desc&include_fields=common_name,region`);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(3);
    for (const c of res.body.items) {
      expect(Object.keys(c)).toEqual(['common_name', 'region']);
      expect(c.region).toBe('Europe');
      expect(c.common_name.startsWith('S')).toBe(true);
    }
    const names = res.body.items.map((c: { common_name: string }) => c.common_name);
    expect(names).toEqual([...names].sort().reverse());
    const excl = await get('/countries?limit=1&exclude_fields=mcc,capital');
    expect(Object.keys(excl.body.items[0])).not.toContain('mcc');
    expect(Object.keys(excl.body.items[0])).not.toContain('capital');
  });

  test('numeric and in filters', async () => {
    const res = await get(`/countries?filter=${encodeURIComponent('iso_3166_alpha_3 in ("USA", "GBR", "FRA")')}`);
    expect(res.body.items.map((c: { iso_3166_alpha_3: string }) => c.iso_3166_alpha_3)).toEqual(['FRA', 'GBR', 'USA']);
    const num = await get(`/countries?filter=${encodeURIComponent('iso_3166_numeric eq 826')}`);
    expect(num.body.items).toHaveLength(1);
    expect(num.body.items[0]).toMatchObject({
      iso_3166_alpha_2: 'GB',
      dialing_prefix: '44',
      domain: 'uk',
      common_name: 'United Kingdom',
    });
    expect(num.body.items[0].mcc).toContain('234');
  });

  test.each([
    ['limit=1001', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-5', 'offset'],
    ['order=nope+asc', 'order'],
    ['order=common_name+sideways', 'order'],
    ['after=7f0c2c1e-6a38-4c37-a8b3-0d8f7f1c2b3a', 'after'],
    ['before=7f0c2c1e-6a38-4c37-a8b3-0d8f7f1c2b3a', 'before'],
    [`filter=${encodeURIComponent('nope eq 1')}`, 'filter'],
    [`filter=${encodeURIComponent('region xx "Europe"')}`, 'filter'],
    [`filter=${encodeURIComponent('iso_3166_numeric eq abc')}`, 'filter'],
    ['include_fields=nope', 'include_fields'],
  ])('%s is a 400 naming %s', async (query, param) => {
    const res = await get(`/countries?${query}`);
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(param);
  });

  test('unknown query parameters are ignored', async () => {
    const res = await get('/countries?limit=1&includeFields=whatever');
    expect(res.status).toBe(200);
  });
});

describe('GET /countries/{iso_3166_alpha_3}', () => {
  test('returns one country, with field filtering', async () => {
    const res = await get('/countries/DEU');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      iso_3166_alpha_2: 'DE',
      iso_3166_numeric: 276,
      official_name: 'Federal Republic of Germany',
      dialing_prefix: '49',
    });
    const some = await get('/countries/DEU?include_fields=capital');
    expect(some.body).toEqual({ capital: 'Berlin' });
  });

  test('unknown code is a 404 with the error body', async () => {
    const res = await get('/countries/XXX');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Cannot find item by SID');
    expectErrorBody(res.body);
  });

  test('needs a countries scope', async () => {
    const limited = await newPartner({ scopes: ['storage.read'] });
    const res = await http()
      .get(`${API}/countries`)
      .set(...limited.auth);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errors: [], message: 'Forbidden' });
  });
});

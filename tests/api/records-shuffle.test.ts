/**
 * `order=shuffle` pages: following `next` visits every record exactly once (the seed of the
 * permutation travels in the pagination URLs), on the detail-record lists and on countries alike.
 */
import { randomUUID } from 'node:crypto';
import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';

interface Page {
  status: number;
  body: {
    items: Array<Record<string, unknown>>;
    has_more: boolean;
    total: number | null;
    pagination: { next?: string; previous?: string };
    errors?: Array<{ field: string }>;
  };
}

let partner: TestPartner;
beforeAll(async () => {
  partner = await newPartner();
});

const get = (pathAndQuery: string): Promise<Page> => {
  const rel = pathAndQuery.startsWith('http')
    ? (() => {
        const u = new URL(pathAndQuery);
        return u.pathname + u.search;
      })()
    : `${API}${pathAndQuery}`;
  return http()
    .get(rel)
    .set(...partner.auth);
};

/** Follows `next` from `url`; returns the keys seen and the seed every link carried. */
async function walk(url: string, key: string): Promise<{ seen: string[]; seeds: Set<string>; pages: number }> {
  const seen: string[] = [];
  const seeds = new Set<string>();
  let pages = 0;
  for (let page = await get(url); ; page = await get(page.body.pagination.next as string)) {
    expect(page.status).toBe(200);
    pages++;
    seen.push(...page.body.items.map((i) => String(i[key])));
    if (!page.body.pagination.next) return { seen, seeds, pages };
    expect(page.body.has_more).toBe(true);
    seeds.add(new URL(page.body.pagination.next).searchParams.get('seed') ?? '');
  }
}

test('message records: every record exactly once over the pages, in one permutation', async () => {
  const records = Array.from({ length: 53 }, (_, i) => ({
    dr_sid: randomUUID(),
    date_stop: new Date(Date.UTC(2024, 0, 1, 0, 0, i % 4)).toISOString(),
  }));
  expect(
    (
      await http()
        .post(`${API}/sms/message_drs`)
        .set(...partner.auth)
        .send(records)
    ).body.stored,
  ).toBe(53);
  const { seen, seeds, pages } = await walk('/sms/message_drs?order=shuffle&limit=8&include_fields=dr_sid', 'dr_sid');
  expect(pages).toBe(7);
  expect(seen).toHaveLength(53);
  expect(new Set(seen)).toEqual(new Set(records.map((r) => r.dr_sid)));
  expect(seeds.size).toBe(1);
  // Shuffled: not the list's own order.
  const sorted = (await get('/sms/message_drs?limit=100&include_fields=dr_sid')).body.items.map((i) => i.dr_sid);
  expect(seen).not.toEqual(sorted);
  // The same seed gives the same order again; previous goes back to the page before.
  const [seed] = seeds;
  const again = await walk(`/sms/message_drs?order=shuffle&limit=8&include_fields=dr_sid&seed=${seed}`, 'dr_sid');
  expect(again.seen).toEqual(seen);
  const third = await get(`/sms/message_drs?order=shuffle&limit=8&include_fields=dr_sid&seed=${seed}&offset=16`);
  const back = await get(third.body.pagination.previous as string);
  expect(back.body.items.map((i) => i.dr_sid)).toEqual(seen.slice(8, 16));
});

test('call records: every record once, with a filter', async () => {
  const records = Array.from({ length: 30 }, (_, i) => ({
    dr_sid: randomUUID(),
    date_start: '2024-01-01T00:00:00Z',
    date_stop: '2024-01-01T00:01:00Z',
    direction: i % 2 ? 'inbound' : 'outbound',
  }));
  await http()
    .post(`${API}/calls/call_drs`)
    .set(...partner.auth)
    .send(records);
  const { seen } = await walk(
    `/calls/call_drs?order=shuffle&limit=4&filter=${encodeURIComponent('direction eq "inbound"')}`,
    'dr_sid',
  );
  expect(seen.sort()).toEqual(
    records
      .filter((r) => r.direction === 'inbound')
      .map((r) => r.dr_sid)
      .sort(),
  );
});

test('countries: every country exactly once over the pages', async () => {
  const all = await get('/countries?limit=1000&include_fields=iso_3166_alpha_3');
  const { seen } = await walk('/countries?order=shuffle&limit=37&include_fields=iso_3166_alpha_3', 'iso_3166_alpha_3');
  expect(seen).toHaveLength(all.body.total as number);
  expect(seen.slice().sort()).toEqual(all.body.items.map((i) => String(i.iso_3166_alpha_3)).sort());
});

test('a malformed seed is a 400 naming seed', async () => {
  const res = await get('/countries?order=shuffle&seed=no+spaces');
  expect(res.status).toBe(400);
  expectErrorBody(res.body);
  expect(res.body.errors?.map((e) => e.field)).toEqual(['seed']);
});

/**
 * `GET /sms/message_drs` with after/before ordered by `date_stop` (what the publisher's own
 * downloader sends), in both directions: every record once, in the total order — records without
 * a `date_stop` first in ascending order, then by date, equal dates by `dr_sid`.
 */
import { randomUUID } from 'node:crypto';
import { API, http, newPartner, type TestPartner } from '../harness/api';

interface Page {
  status: number;
  body: {
    items: Array<{ dr_sid: string }>;
    has_more: boolean;
    pagination: { next?: string; previous?: string };
    errors?: Array<{ field: string }>;
  };
}

const N = 240;
/** 240 messages over 30 instants (with ties), one in eight without date_stop. */
const stopOf = (i: number): string | null =>
  i % 8 === 3 ? null : new Date(Date.UTC(2024, 5, 1) + ((i * 7) % 30) * 1000).toISOString();

let partner: TestPartner;
let records: Array<{ dr_sid: string; date_stop: string | null; type: string }>;
/** dr_sids by date_stop asc (nulls first), then dr_sid. */
let asc: string[];

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
const sids = (p: Page) => p.body.items.map((i) => i.dr_sid);

beforeAll(async () => {
  partner = await newPartner();
  records = Array.from({ length: N }, (_, i) => ({
    dr_sid: randomUUID(),
    date_stop: stopOf(i),
    type: i % 3 === 0 ? 'mms' : 'sms',
  }));
  const res = await http()
    .post(`${API}/sms/message_drs`)
    .set(...partner.auth)
    .send(records);
  expect(res.body).toMatchObject({ stored: N, rejected: 0 });
  const t = (r: { date_stop: string | null }) => (r.date_stop === null ? -Infinity : Date.parse(r.date_stop));
  asc = [...records].sort((a, b) => t(a) - t(b) || (a.dr_sid < b.dr_sid ? -1 : 1)).map((r) => r.dr_sid);
}, 60_000);

/** Follows `next` from `url`; returns every sid seen. */
async function forward(url: string): Promise<string[]> {
  const seen: string[] = [];
  for (let page = await get(url); ; page = await get(page.body.pagination.next as string)) {
    expect(page.status).toBe(200);
    seen.push(...sids(page));
    if (!page.body.pagination.next) return seen;
  }
}

/** Follows `previous` from `url`; returns every sid seen, in list order. */
async function backward(url: string): Promise<string[]> {
  const chunks: string[][] = [];
  for (let page = await get(url); ; page = await get(page.body.pagination.previous as string)) {
    expect(page.status).toBe(200);
    chunks.unshift(sids(page));
    if (!page.body.pagination.previous) return chunks.flat();
  }
}

test.each(['asc', 'desc'] as const)(
  'order=date_stop %s: after walks forward, before walks back, each record once',
  async (dir) => {
    const order = dir === 'asc' ? asc : [...asc].reverse();
    expect(await forward(`/sms/message_drs?order=date_stop+${dir}&limit=17&after=${order[0]}`)).toEqual(order.slice(1));
    expect(await backward(`/sms/message_drs?order=date_stop+${dir}&limit=17&before=${order[N - 1]}`)).toEqual(
      order.slice(0, -1),
    );
  },
  60_000,
);

test('the first page by offset and the cursor pages after it agree', async () => {
  const first = await get('/sms/message_drs?order=date_stop&limit=40');
  expect(sids(first)).toEqual(asc.slice(0, 40));
  expect(await forward(`/sms/message_drs?order=date_stop&limit=40&after=${sids(first)[39]}`)).toEqual(asc.slice(40));
});

test('a window between two records, next keeping before; after the last record is an empty page', async () => {
  // From among the records without date_stop into the dated ones.
  expect(await forward(`/sms/message_drs?order=date_stop&limit=9&after=${asc[10]}&before=${asc[77]}`)).toEqual(
    asc.slice(11, 77),
  );
  const last = await get(`/sms/message_drs?order=date_stop&after=${asc[N - 1]}`);
  expect(last.body).toMatchObject({ items: [], has_more: false, pagination: {} });
  const first = await get(`/sms/message_drs?order=date_stop+desc&after=${asc[0]}`);
  expect(first.body).toMatchObject({ items: [], has_more: false, pagination: {} });
});

test('with a filter: a cursor the filter excludes still positions the page', async () => {
  const mms = new Set(records.filter((r) => r.type === 'mms').map((r) => r.dr_sid));
  const start = asc.find((s, i) => i > 20 && !mms.has(s)) as string;
  const want = asc.slice(asc.indexOf(start) + 1).filter((s) => mms.has(s));
  expect(
    await forward(
      `/sms/message_drs?order=date_stop&limit=6&filter=${encodeURIComponent('type eq "mms"')}&after=${start}`,
    ),
  ).toEqual(want);
});

test('other orders with a cursor are still refused, naming order', async () => {
  const res = await get(`/sms/message_drs?order=date_sent&after=${asc[0]}`);
  expect(res.status).toBe(400);
  expect(res.body.errors?.map((e) => e.field)).toEqual(['order']);
});

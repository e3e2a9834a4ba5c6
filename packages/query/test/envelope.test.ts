import { buildEnvelope, cursorPagination, offsetPagination } from '../src/envelope';

const URL_ = 'https://api.example.com/core/v2/countries?limit=2&filter=region+eq+%22Europe%22&includeFields=x&offset=4';
const params = (u: string | undefined): Record<string, string> => Object.fromEntries(new URL(u as string).searchParams);

describe('buildEnvelope', () => {
  it('returns exactly the public keys, in alphabetical order', () => {
    const env = buildEnvelope({ items: [{ a: 1 }], limit: 10, offset: 0, hasMore: false, total: 1, pagination: {} });
    expect(Object.keys(env)).toEqual(['count', 'has_more', 'items', 'limit', 'offset', 'pagination', 'total']);
    expect(env).toEqual({
      count: 1,
      has_more: false,
      items: [{ a: 1 }],
      limit: 10,
      offset: 0,
      pagination: {},
      total: 1,
    });
  });
  it('orders pagination keys next, previous and omits absent ones', () => {
    const env = buildEnvelope({
      items: [],
      limit: 1,
      offset: 0,
      hasMore: true,
      total: null,
      pagination: { previous: 'p', next: 'n' },
    });
    expect(Object.keys(env.pagination)).toEqual(['next', 'previous']);
    expect(
      buildEnvelope({ items: [], limit: 1, offset: 0, hasMore: false, total: null, pagination: { next: undefined } })
        .pagination,
    ).toEqual({});
  });
});

describe('offsetPagination', () => {
  it('builds absolute next/previous URLs keeping every other parameter', () => {
    const p = offsetPagination(URL_, { offset: 4, limit: 2, hasMore: true });
    expect(p.next).toMatch(/^https:\/\/api\.example\.com\/core\/v2\/countries\?/);
    expect(params(p.next)).toEqual({ limit: '2', filter: 'region eq "Europe"', includeFields: 'x', offset: '6' });
    expect(params(p.previous)).toEqual({ limit: '2', filter: 'region eq "Europe"', includeFields: 'x', offset: '2' });
  });
  it('previous is max(offset - limit, 0), only when offset > 0; next only with has_more', () => {
    expect(params(offsetPagination(URL_, { offset: 1, limit: 10, hasMore: false }).previous).offset).toBe('0');
    expect(offsetPagination(URL_, { offset: 0, limit: 10, hasMore: false })).toEqual({});
    expect(Object.keys(offsetPagination(URL_, { offset: 0, limit: 10, hasMore: true }))).toEqual(['next']);
  });
  it('adds offset when the request had none', () => {
    const p = offsetPagination('http://h/core/v2/countries', { offset: 0, limit: 10, hasMore: true });
    expect(p.next).toBe('http://h/core/v2/countries?offset=10');
  });
});

describe('cursorPagination', () => {
  const base = 'https://api.example.com/core/v2/calls/call_drs?limit=2&filter=duration+gt+5&after=A&before=B&offset=0';
  it('next is after=<last sid>; previous is before=<first sid>; no offset', () => {
    const p = cursorPagination(base, { nextAfter: 'L', previousBefore: 'F', keepBeforeOnNext: true });
    expect(params(p.next)).toEqual({ limit: '2', filter: 'duration gt 5', after: 'L', before: 'B' });
    expect(params(p.previous)).toEqual({ limit: '2', filter: 'duration gt 5', before: 'F' });
  });
  it('drops before from next when the page was read backwards from before', () => {
    const p = cursorPagination('http://h/x?before=B&limit=3', { nextAfter: 'L', keepBeforeOnNext: false });
    expect(p).toEqual({ next: 'http://h/x?limit=3&after=L' });
  });
  it('is {} without links', () => {
    expect(cursorPagination(base, { keepBeforeOnNext: true })).toEqual({});
  });
});

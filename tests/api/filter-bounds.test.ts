/**
 * A filter's complexity is bounded before it reaches a store (decisions §51): at most 50 conditions
 * and 4 KiB. A 1,000-condition filter (SQLite's expression-depth limit is 1,000 terms: it used to
 * answer 500 "document store error") is a 400 naming `filter` on every list, from every service.
 */
import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';

let p: TestPartner;
let other: TestPartner;
beforeAll(async () => {
  [p, other] = await Promise.all([newPartner(), newPartner()]);
});

/** `n` conditions joined by `and`, spaces as `+` (the shortest a client can send them). */
const conjunction = (cond: string, n: number): string => Array.from({ length: n }, () => cond).join('+and+');

// One list per service that owns lists; each attribute is one the list really filters on.
const LISTS: Array<[path: string, condition: string]> = [
  ['/storage/containers', 'type+eq+a'],
  ['/storage/files', 'name+eq+a'],
  ['/endpoints', 'type+eq+a'],
  ['/calls/call_drs', 'cic+eq+a'],
  ['/push/devices', 'type+eq+a'],
  ['/oauth/tokens', 'name+eq+a'],
];

const list = (who: TestPartner, path: string, filter: string) =>
  http()
    .get(`${API}${path}?filter=${filter}`)
    .set(...who.auth);

describe.each(LISTS)('GET %s', (path, condition) => {
  test('a 1,000-condition filter is a 400 naming filter; 50 conditions are served', async () => {
    const huge = await list(p, path, conjunction(condition, 1000));
    expect(huge.status).toBe(400);
    expectErrorBody(huge.body);
    expect(huge.body.errors).toEqual([
      expect.objectContaining({ field: 'filter', message: expect.stringMatching(/at most 4096/) }),
    ]);
    const fifty = await list(p, path, conjunction(condition, 50));
    expect(fifty.status).toBe(200);
    const more = await list(p, path, conjunction(condition, 51));
    expect(more.status).toBe(400);
    expect(more.body.errors[0]).toMatchObject({ field: 'filter', message: expect.stringMatching(/at most 50/) });
  });
});

test('twenty 1,000-condition filters at once are all refused, and another partner is still served', async () => {
  const flood = await Promise.all(
    Array.from({ length: 20 }, () => list(p, '/storage/containers', conjunction('type+eq+a', 1000))),
  );
  expect(flood.map((r) => r.status)).toEqual(Array(20).fill(400));
  const res = await list(other, '/storage/containers', 'type+eq+default');
  expect(res.status).toBe(200);
});

test('a filter over 4 KiB is refused by its size alone, even with few conditions', async () => {
  const res = await list(p, '/endpoints', `name+eq+${'x'.repeat(4090)}`);
  expect(res.status).toBe(400);
  expect(res.body.errors[0]).toMatchObject({ field: 'filter', message: expect.stringMatching(/bytes long/) });
});

/**
 * Detail-record identity is per partner: partner B ingesting a record whose `dr_sid` partner A
 * already has cannot tell it from ingesting a fresh one, and gets its own record. Every record
 * route and cursor stays scoped to the caller: B never sees, pages from or learns of A's record.
 */
import { randomUUID } from 'node:crypto';
import { API, http, newPartner, type TestPartner } from '../harness/api';

const KINDS = [
  {
    name: 'call_drs',
    path: '/calls/call_drs',
    order: 'date_stop',
    make: (sec: number, price: string, sid = randomUUID()) => ({
      dr_sid: sid,
      date_start: new Date(Date.UTC(2024, 2, 1, 0, 0, sec)).toISOString(),
      date_stop: new Date(Date.UTC(2024, 2, 1, 0, 1, sec)).toISOString(),
      price,
    }),
  },
  {
    name: 'message_drs',
    path: '/sms/message_drs',
    order: 'date_insert',
    make: (sec: number, price: string, sid = randomUUID()) => ({
      dr_sid: sid,
      date_insert: new Date(Date.UTC(2024, 2, 1, 0, 1, sec)).toISOString(),
      price,
    }),
  },
] as const;

describe.each(KINDS)('$name', (kind) => {
  let a: TestPartner;
  let b: TestPartner;
  const ingest = (who: TestPartner, records: unknown[]) =>
    http()
      .post(`${API}${kind.path}`)
      .set(...who.auth)
      .send(records);
  const get = (who: TestPartner, pathAndQuery: string) =>
    http()
      .get(`${API}${kind.path}${pathAndQuery}`)
      .set(...who.auth);
  const sids = (res: { body: { items: Array<{ dr_sid: string }> } }) => res.body.items.map((i) => i.dr_sid);

  // A's records at seconds 10, 20 (shared with B) and 30; B's at 5, 15, 25 (the shared sid) and 35.
  const shared = randomUUID();
  const aOnly = randomUUID();
  let aRecords: Array<{ dr_sid: string }>;
  /** B's answers for a record with A's dr_sid, and for a fresh one. */
  let taken: { status: number; body: unknown };
  let fresh: { status: number; body: unknown };

  beforeAll(async () => {
    [a, b] = await Promise.all([newPartner(), newPartner()]);
    aRecords = [kind.make(10, '0.10', aOnly), kind.make(20, '0.20', shared), kind.make(30, '0.30')];
    expect((await ingest(a, aRecords)).body).toMatchObject({ stored: 3, rejected: 0 });
    taken = await ingest(b, [kind.make(25, '0.25', shared)]);
    fresh = await ingest(b, [kind.make(5, '0.05')]);
    expect((await ingest(b, [kind.make(15, '0.15'), kind.make(35, '0.35')])).body).toMatchObject({ stored: 2 });
  });

  test("B ingesting A's dr_sid is indistinguishable from ingesting a fresh one, and the record is B's", async () => {
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual(fresh.body);
    expect(taken.body).toEqual({
      complete: true,
      duplicates: 0,
      errors: [],
      ignored_fields: {},
      received: 1,
      rejected: 0,
      stored: 1,
    });
    expect(sids(await get(b, '?limit=100'))).toHaveLength(4);

    expect((await get(b, `/${shared}`)).body).toMatchObject({
      dr_sid: shared,
      partner_sid: b.partner_sid,
      price: '0.25',
    });
    expect((await get(a, `/${shared}`)).body).toMatchObject({
      dr_sid: shared,
      partner_sid: a.partner_sid,
      price: '0.20',
    });
    // A replay is each partner's own duplicate.
    expect((await ingest(a, [kind.make(20, '9.99', shared)])).body).toMatchObject({ stored: 0, duplicates: 1 });
    expect((await ingest(b, [kind.make(25, '9.99', shared)])).body).toMatchObject({ stored: 0, duplicates: 1 });
  });

  test("lists and filters hold only the caller's records", async () => {
    const bList = await get(b, '?limit=100');
    expect(bList.body.items.every((i: { partner_sid: string }) => i.partner_sid === b.partner_sid)).toBe(true);
    expect(sids(bList)).not.toContain(aOnly);
    const byFilter = await get(b, `?filter=${encodeURIComponent(`dr_sid eq ${shared}`)}`);
    expect(byFilter.body.items).toEqual([expect.objectContaining({ partner_sid: b.partner_sid, price: '0.25' })]);
    const aList = await get(a, '?limit=100');
    expect(sids(aList).sort()).toEqual(aRecords.map((r) => r.dr_sid).sort());
  });

  test("cursors are the caller's: the shared sid positions B at B's record; A's own sid is unknown to B", async () => {
    const afterShared = await get(b, `?order=${kind.order}&after=${shared}`);
    expect(afterShared.body.items.map((i: { price: string }) => i.price)).toEqual(['0.35']);
    const beforeShared = await get(b, `?order=${kind.order}&before=${shared}`);
    expect(beforeShared.body.items.map((i: { price: string }) => i.price)).toEqual(['0.05', '0.15']);
    const afterShareA = await get(a, `?order=${kind.order}&after=${shared}`);
    expect(afterShareA.body.items.map((i: { price: string }) => i.price)).toEqual(['0.30']);

    const unknown = randomUUID();
    for (const side of ['after', 'before']) {
      const theirs = await get(b, `?${side}=${aOnly}`);
      const nobodys = await get(b, `?${side}=${unknown}`);
      expect(theirs.status).toBe(400);
      expect(JSON.stringify(theirs.body).replace(aOnly, 'SID')).toBe(
        JSON.stringify(nobodys.body).replace(unknown, 'SID'),
      );
    }
    const getTheirs = await get(b, `/${aOnly}`);
    const getNobodys = await get(b, `/${unknown}`);
    expect(getTheirs.status).toBe(404);
    expect(getTheirs.body).toEqual(getNobodys.body);
  });
});

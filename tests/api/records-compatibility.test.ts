/**
 * Compatibility settings (reference-facts "Compatibility settings", decisions §41): the publisher's
 * CDR downloader (v2) sends no `limit` and stops at the first page under 1000 records. With the
 * default CDR_DEFAULT_LIMIT (10) it gets 10 records; on an instance started with
 * CDR_DEFAULT_LIMIT=1000 the same loop gets every record, of calls and of messages. A message
 * record's `version` is a string or an integer, returned as given.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { API, http, instance, mode, newPartner, type TestPartner } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';

const CALLS = 2345;
const MESSAGES = 1000;

const call = (i: number) => ({
  dr_sid: randomUUID(),
  date_start: new Date(Date.UTC(2024, 5, 1) + i * 1000).toISOString(),
  date_stop: new Date(Date.UTC(2024, 5, 1, 0, 1) + i * 1000).toISOString(),
  price: '0.01',
});
const message = (i: number, extra: Record<string, unknown> = {}) => ({
  dr_sid: randomUUID(),
  date_insert: new Date(Date.UTC(2024, 5, 1) + i * 1000).toISOString(),
  type: 'sms',
  ...extra,
});

/** The downloader's loop: no `limit`; each next page by the envelope's `next`; stop at a page under 1000. */
async function download(origin: string, auth: [string, string], path: string): Promise<string[]> {
  const sids: string[] = [];
  let url = `${origin}${API}${path}`;
  for (let pages = 0; pages < 100; pages++) {
    const u = new URL(url);
    const res = await request(u.origin)
      .get(`${u.pathname}${u.search}`)
      .set(...auth);
    expect(res.status).toBe(200);
    expect(u.searchParams.has('limit')).toBe(false);
    const items = res.body.items as Array<{ dr_sid: string }>;
    sids.push(...items.map((r) => r.dr_sid));
    if (items.length < 1000) return sids;
    // A full page: ask for the next (with no `next`, nothing follows: the downloader's next page is empty).
    const next = res.body.pagination.next as string | undefined;
    if (!next) return sids;
    url = next;
  }
  throw new Error('the downloader did not stop');
}

async function ingest(origin: string, auth: [string, string], path: string, records: unknown[]) {
  const res = await request(origin)
    .post(`${API}${path}`)
    .set(...auth)
    .send(records);
  expect(res.status).toBe(200);
  expect(res.body.stored).toBe(records.length);
}

describe('CDR_DEFAULT_LIMIT', () => {
  test('default (10): the downloader silently stops after 10 records', async () => {
    const p = await newPartner();
    const calls = Array.from({ length: 25 }, (_, i) => call(i));
    await ingest(`${instance().origin}`, p.auth, '/calls/call_drs', calls);
    const list = await http()
      .get(`${API}/calls/call_drs`)
      .set(...p.auth);
    expect(list.body.limit).toBe(10);
    expect(await download(instance().origin, p.auth, '/calls/call_drs')).toHaveLength(10);
  });

  describe('an instance started with CDR_DEFAULT_LIMIT=1000', () => {
    let pb: PatchbayInstance;
    let auth: [string, string];
    beforeAll(async () => {
      pb = await startPatchbay(mode(), { CDR_DEFAULT_LIMIT: '1000' });
      const login = `cdr${Date.now().toString(36)}`;
      const created = await request(pb.origin)
        .post(`${API}/partners`)
        .set('Authorization', `Bearer ${pb.token}`)
        .send({ name: 'downloader', login, password: 'partner-password-1' });
      expect(created.status).toBe(200);
      const tok = await request(pb.origin)
        .post(`${API}/oauth/token`)
        .type('form')
        .send({ grant_type: 'password', username: login, password: 'partner-password-1' });
      auth = ['Authorization', `Bearer ${tok.body.access_token}`];
    }, 120_000);
    afterAll(async () => {
      await pb?.stop();
    }, 60_000);

    test('the downloader gets every call and every message record; an explicit limit still applies', async () => {
      const calls = Array.from({ length: CALLS }, (_, i) => call(i));
      const messages = Array.from({ length: MESSAGES }, (_, i) => message(i));
      await ingest(pb.origin, auth, '/calls/call_drs', calls);
      await ingest(pb.origin, auth, '/sms/message_drs', messages);
      const gotCalls = await download(pb.origin, auth, '/calls/call_drs');
      expect(gotCalls).toHaveLength(CALLS);
      expect(new Set(gotCalls)).toEqual(new Set(calls.map((c) => c.dr_sid)));
      // Exactly 1000: a full page, then an empty one ends the loop.
      const gotMessages = await download(pb.origin, auth, '/sms/message_drs');
      expect(new Set(gotMessages)).toEqual(new Set(messages.map((m) => m.dr_sid)));
      const explicit = await request(pb.origin)
        .get(`${API}/calls/call_drs?limit=5`)
        .set(...auth);
      expect(explicit.body.items).toHaveLength(5);
    }, 120_000);
  });
});

describe('message record version', () => {
  let p: TestPartner;
  beforeAll(async () => {
    p = await newPartner();
  });

  test('an integer or a string is accepted and returned as given; anything else names the field', async () => {
    const asInteger = message(1, { version: 2 });
    const asString = message(2, { version: '2.1' });
    const res = await http()
      .post(`${API}/sms/message_drs`)
      .set(...p.auth)
      .send([asInteger, asString, message(3, { version: true })]);
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(2);
    expect(res.body.errors).toEqual([expect.objectContaining({ position: 2, field: 'version' })]);
    for (const [sent, version] of [
      [asInteger, 2],
      [asString, '2.1'],
    ] as const) {
      const got = await http()
        .get(`${API}/sms/message_drs/${sent.dr_sid}`)
        .set(...p.auth);
      expect(got.status).toBe(200);
      expect(got.body.version).toBe(version);
    }
  });
});

describe('cursor pages that end exactly full', () => {
  /**
   * The publisher's CDR downloader (cursor mode): follows `pagination.next` while a page is full
   * (count == limit) and stops at a page with count 0; it builds `new URL(next)` without checking,
   * so a full page without `next` throws (TypeError: Invalid URL).
   */
  async function follow(auth: [string, string], first: string): Promise<{ sids: string[]; pages: number }> {
    const sids: string[] = [];
    let url = new URL(`${instance().origin}${API}${first}`);
    for (let pages = 1; pages < 50; pages++) {
      const res = await http()
        .get(`${url.pathname}${url.search}`)
        .set(...auth);
      expect(res.status).toBe(200);
      const items = res.body.items as Array<{ dr_sid: string }>;
      sids.push(...items.map((r) => r.dr_sid));
      if (res.body.count === 0) {
        expect(res.body.pagination.next).toBeUndefined();
        return { sids, pages };
      }
      if (res.body.count < res.body.limit) return { sids, pages };
      url = new URL(res.body.pagination.next as string);
    }
    throw new Error('the downloader did not stop');
  }

  test.each([
    ['/sms/message_drs', 'date_insert', message],
    ['/calls/call_drs', 'date_stop', call],
  ] as const)('%s: every full page has next; the last leads to an empty page', async (path, order, make) => {
    const p = await newPartner();
    // An anchor the download starts after, then exactly three pages of five.
    const records = Array.from({ length: 16 }, (_, i) => make(i));
    await ingest(instance().origin, p.auth, path, records);
    const got = await follow(p.auth, `${path}?after=${records[0].dr_sid}&order=${order}&limit=5`);
    expect(got.sids).toEqual(records.slice(1).map((r) => r.dr_sid));
    expect(got.pages).toBe(4);
  });
});

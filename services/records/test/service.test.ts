/**
 * The records service on an in-process bus and an in-memory store: ingest batches (validation by
 * position, idempotency by dr_sid, partner isolation) and the durable record events.
 */
import { randomUUID } from 'node:crypto';
import {
  CallRecordSchema,
  MessageRecordSchema,
  Subjects,
  compileValidator,
  unwrapReply,
  type RecordIngestBatchResult,
} from '@patchbay/contracts';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type Stoppable,
} from '@patchbay/platform';
import { captureLogger } from '../../../packages/platform/src/testing/capture-logger';
import { DEFAULT_EXPORT_SETTINGS } from '../src/config';
import { startRecordsService } from '../src/service';
import { eventually } from '../../../tests/support/poll';

const unusedBlobs = {} as BlobStore;
const P1 = randomUUID();
const P2 = randomUUID();
const principal = (partner: string) => ({ partner_sid: partner, login: 'test', scopes: [], token_sid: null });

let bus: MemoryBus;
let docs: SqliteDocStore;
let service: Stoppable;
beforeAll(async () => {
  const hub = MemoryBus.hub();
  bus = new MemoryBus(hub);
  docs = new SqliteDocStore();
  service = await startRecordsService(
    {
      bus: new MemoryBus(hub),
      docs,
      blobs: unusedBlobs,
      logger: createLogger({ name: 'records-test', level: 'silent' }),
      metrics: createMetricsRegistry('records-test'),
    },
    { cdrDefaultLimit: 10, largeLists: { largeOver: 100, perPartner: 2, total: 8 }, exports: DEFAULT_EXPORT_SETTINGS },
  );
});
afterAll(async () => {
  await service.stop();
  await bus.close();
  await docs.close();
});

const call = (i: number, extra: Record<string, unknown> = {}) => ({
  dr_sid: randomUUID(),
  date_start: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
  date_stop: new Date(Date.UTC(2024, 0, 1, 0, 1, i)).toISOString(),
  ...extra,
});
const ingest = async (partner: string, records: unknown[], first = 0) =>
  unwrapReply<RecordIngestBatchResult>(
    await bus.request(Subjects.records.callIngest, { principal: principal(partner), first_position: first, records }),
  );
const get = async (partner: string, sid: string) =>
  bus.request(Subjects.records.callGet, {
    principal: principal(partner),
    params: { dr_sid: sid },
    query: {},
    body: undefined,
    url: 'http://x/core/v2/calls/call_drs',
  });

describe('ingest batches', () => {
  test('stores good records, reports bad ones by position and field, skips null slots', async () => {
    const good = [call(1), call(2)];
    const colored = { ...call(4), color: 'red' };
    const res = await ingest(
      P1,
      [good[0], { ...call(3), price: 0.5 }, null, colored, good[1], { dr_sid: 'nope', color: 'blue' }],
      10,
    );
    expect(res.stored).toBe(3);
    expect(res.duplicates).toBe(0);
    expect(res.ignored_fields).toEqual({ color: 2 });
    expect(res.errors).toHaveLength(4);
    expect(res.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ position: 11, field: 'price', message: expect.stringContaining('decimal string') }),
        expect.objectContaining({ position: 15, field: 'dr_sid' }),
        expect.objectContaining({ position: 15, field: 'date_start' }),
        expect.objectContaining({ position: 15, field: 'date_stop' }),
      ]),
    );
    expect((await get(P1, good[0].dr_sid)).status).toBe(200);
    expect(unwrapReply(await get(P1, colored.dr_sid))).not.toHaveProperty('color');
  });

  test('a replay is not an error: duplicates are counted, nothing changes', async () => {
    const records = [call(5, { price: '0.10' }), call(6)];
    expect(await ingest(P1, records)).toEqual({ stored: 2, duplicates: 0, errors: [], ignored_fields: {} });
    expect(await ingest(P1, [{ ...records[0], price: '9.99' }, records[1], records[1]])).toEqual({
      stored: 0,
      duplicates: 3,
      errors: [],
      ignored_fields: {},
    });
    expect(unwrapReply<{ price: string }>(await get(P1, records[0].dr_sid)).price).toBe('0.10');
  });

  test(
    "identity is per partner: another partner's dr_sid is a fresh record " +
      'of the caller; nobody ingests for another',
    async () => {
      const mine = call(7, { price: '0.01' });
      await ingest(P1, [mine]);
      expect((await get(P2, mine.dr_sid)).status).toBe(404);
      const res = await ingest(P2, [{ ...mine, price: '0.99' }, call(8, { partner_sid: P1 })]);
      expect(res).toEqual({
        stored: 1,
        duplicates: 0,
        errors: [expect.objectContaining({ position: 1, field: 'partner_sid' })],
        ignored_fields: {},
      });
      expect(unwrapReply<{ price: string; partner_sid: string }>(await get(P2, mine.dr_sid))).toMatchObject({
        price: '0.99',
        partner_sid: P2,
      });
      expect(unwrapReply<{ price: string }>(await get(P1, mine.dr_sid)).price).toBe('0.01');
    },
  );
});

test('served records match the published schemas (every field present, decimal strings)', async () => {
  const full = call(20, {
    date_talk: new Date(Date.UTC(2024, 0, 1, 0, 0, 30)).toISOString(),
    direction: 'inbound',
    duration_billing: '60',
    endpoint_sid_src: randomUUID(),
    number_src: '+15012678830',
    price: '0.0025',
    rate: '0.0025',
    sipcause: '200',
    codec_src: 'amrwb',
  });
  const bare = call(21);
  await ingest(P1, [full, bare]);
  const validateCall = compileValidator(CallRecordSchema);
  for (const r of [full, bare]) validateCall(unwrapReply(await get(P1, r.dr_sid)));
  expect(unwrapReply(await get(P1, full.dr_sid))).toMatchObject({
    duration: '60',
    duration_billing: '60',
    price: '0.0025',
    direction: 'inbound',
  });
  const sid = randomUUID();
  await bus.request(Subjects.records.messageIngest, {
    principal: principal(P1),
    first_position: 0,
    records: [{ dr_sid: sid }],
  });
  const message = unwrapReply(
    await bus.request(Subjects.records.messageGet, {
      principal: principal(P1),
      params: { dr_sid: sid },
      query: {},
      body: undefined,
      url: 'http://x',
    }),
  );
  expect(compileValidator(MessageRecordSchema)(message)).toMatchObject({ dr_sid: sid, media_urls: [], price: null });
});

describe('record events', () => {
  test('evt.call.completed stores its record once, however often it arrives', async () => {
    const record = { ...call(9), partner_sid: P2, sipcause: '486' };
    await bus.publish(Subjects.events.callCompleted, { record });
    await bus.publish(Subjects.events.callCompleted, { record });
    await eventually(async () => {
      expect(unwrapReply<{ sipcause: string }>(await get(P2, record.dr_sid)).sipcause).toBe('486');
    });
    const list = unwrapReply<{ items: unknown[] }>(
      await bus.request(Subjects.records.callList, {
        principal: principal(P2),
        params: {},
        query: { filter: `dr_sid eq ${record.dr_sid}` },
        body: undefined,
        url: 'http://x/core/v2/calls/call_drs',
      }),
    );
    expect(list.items).toHaveLength(1);
  });

  test('evt.message.recorded stores a message record; a record without partner is dropped', async () => {
    const sid = randomUUID();
    const orphan = randomUUID();
    await bus.publish(Subjects.events.messageRecorded, { record: { dr_sid: orphan, type: 'sms' } });
    await bus.publish(Subjects.events.messageRecorded, {
      record: {
        dr_sid: sid,
        partner_sid: P1,
        type: 'mms',
        media_urls: ['https://files.test/f/1'],
        mcc: '310',
        added_later: true,
      },
    });
    const getMessage = (s: string) =>
      bus.request(Subjects.records.messageGet, {
        principal: principal(P1),
        params: { dr_sid: s },
        query: {},
        body: undefined,
        url: 'http://x',
      });
    await eventually(async () => {
      expect(unwrapReply(await getMessage(sid))).toMatchObject({
        type: 'mms',
        mcc: 310,
        media_urls: ['https://files.test/f/1'],
        partner_sid: P1,
      });
    });
    expect((await getMessage(orphan)).status).toBe(404);
  });
});

test(
  'a malformed batch or event is refused where it is received: 400 ' +
    'naming the field, an error logged, the service still serving',
  async () => {
    const { logger, lines } = captureLogger('error');
    const hub = MemoryBus.hub();
    const caller = new MemoryBus(hub);
    const own = await startRecordsService(
      {
        bus: new MemoryBus(hub),
        docs: new SqliteDocStore(),
        blobs: unusedBlobs,
        logger,
        metrics: createMetricsRegistry('records-malformed'),
      },
      {
        cdrDefaultLimit: 10,
        largeLists: { largeOver: 100, perPartner: 2, total: 8 },
        exports: DEFAULT_EXPORT_SETTINGS,
      },
    );
    try {
      const bad = await caller.request(Subjects.records.callIngest, {
        principal: principal(P1),
        first_position: 'x',
        records: [],
      });
      expect(bad.status).toBe(400);
      expect('error' in bad && bad.error.errors.map((e) => e.field)).toEqual(['first_position']);
      expect(
        (
          await caller.request(Subjects.records.messageIngest, {
            principal: principal(P1),
            first_position: 0,
            records: 'nope',
          })
        ).status,
      ).toBe(400);
      expect((await caller.request(Subjects.records.callList, { params: {}, query: {}, url: 'x' })).status).toBe(400);
      await caller.publish(Subjects.events.callCompleted, { record: 'not an object' });
      await eventually(async () =>
        expect(lines.filter((l) => l.msg === 'malformed internal message refused').map((l) => l.subject)).toEqual([
          Subjects.records.callIngest,
          Subjects.records.messageIngest,
          Subjects.records.callList,
          Subjects.events.callCompleted,
        ]),
      );
      const fine = await caller.request(Subjects.records.callIngest, {
        principal: principal(P1),
        first_position: 0,
        records: [call(1)],
      });
      expect(fine.status).toBe(200);
    } finally {
      await own.stop();
      await caller.close();
    }
  },
);
